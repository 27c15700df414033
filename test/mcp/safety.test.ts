/**
 * Operator and agent safety, in process against the sandbox: read-only mode, tool and service filters, a client's
 * narrowing, confirmation of destructive calls (forms and `confirm`), and dry runs. Every refusal is checked against
 * the sandbox's request log: nothing may reach it.
 */
import type { CallToolResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connect, type ConnectOptions, type Harness } from './harness.js';

const READ_ONLY_TOOLS = [
  'streaming_list_config_groups',
  'streaming_list_server_images',
  'translation_translate_text',
  'maps_reverse_geocode',
  'apigateway_list_products',
  'bigdata_check_app_name',
  'recommendation_get_default_schema',
  'textgen_create_completion',
  'search_list_tokenizer_languages',
  'translate_and_summarize',
];

let open: Harness[] = [];
async function server(options: ConnectOptions = {}): Promise<Harness> {
  const h = await connect(options);
  open.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(open.map((h) => h.close()));
  open = [];
});

const names = async (h: Harness) => (await h.client.listTools()).tools.map((t) => t.name);
const call = (h: Harness, name: string, args: Record<string, unknown>) =>
  h.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;
const sent = (h: Harness) => h.sandbox.requests.entries.length;

describe('read-only mode', () => {
  it.each([
    ['--read-only', { argv: ['--read-only'] }],
    ['SVC_READ_ONLY=true', { env: { SVC_READ_ONLY: 'true' } }],
  ] as const)('%s lists only the read-only tools and refuses the others, sending nothing', async (_, options) => {
    const h = await server(options);
    expect(await names(h)).toEqual(READ_ONLY_TOOLS);
    const refused = await call(h, 'kms_migrate_key', {
      keyTag: 'kt-orders-3f9a1c',
      targetRegion: 'JPN',
      confirm: 'kt-orders-3f9a1c',
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(
      'kms_migrate_key failed [not_enabled]: kms_migrate_key is not enabled on this server: the server runs in read-only mode. Nothing was sent.',
    );
    expect(sent(h)).toBe(0);
    const allowed = await call(h, 'search_list_tokenizer_languages', {});
    expect(allowed.isError).toBeFalsy();
  });

  it('says so in the instructions, which name no tool the model cannot see', async () => {
    const h = await server({ argv: ['--read-only'] });
    const instructions = h.client.getInstructions() ?? '';
    expect(instructions).toContain('This server is read-only');
    expect(instructions).not.toMatch(/kms_migrate_key|recommendation_delete_service|dryRun/);
  });
});

describe('tool and service filters', () => {
  it('--tools lists and runs only the named tools', async () => {
    const h = await server({ argv: ['--tools', 'kms_migrate_key,search_list_tokenizer_languages'] });
    expect(await names(h)).toEqual(['search_list_tokenizer_languages', 'kms_migrate_key']);
    const refused = await call(h, 'search_update_schema', {
      name: 'products',
      document: { primarySectionName: 'a', sections: [], indexes: [] },
    });
    expect(text(refused)).toMatch(/\[not_enabled\].*it is not among the enabled tools/);
    expect(sent(h)).toBe(0);
    expect(h.client.getInstructions()).toMatch(
      /kms_migrate_key destroys things: each call waits for the user's confirmation/,
    );
    expect(h.client.getInstructions()).not.toContain('recommendation_delete_service');
  });

  it('--services lists the tools of those services; the workflow tool needs both of its services', async () => {
    const h = await server({ argv: ['--services', 'kms,search'] });
    expect(await names(h)).toEqual(['search_update_schema', 'search_list_tokenizer_languages', 'kms_migrate_key']);
    expect(h.client.getInstructions()).toMatch(/^Tools for the search and key management services of a platform/);
    const both = await server({ env: { SVC_SERVICES: 'translation,textgen' } });
    expect(await names(both)).toEqual([
      'translation_translate_text',
      'textgen_create_completion',
      'translate_and_summarize',
    ]);
    const one = await server({ env: { SVC_SERVICES: 'translation' } });
    expect(await names(one)).toEqual(['translation_translate_text']);
    expect(text(await call(one, 'translate_and_summarize', { text: 'Hello.', target: 'ko' }))).toMatch(
      /its service textgen is not enabled/,
    );
  });

  it('offers only the prompts whose tools are enabled, and they name no other tool', async () => {
    const none = await server({ argv: ['--services', 'kms,search'] });
    expect(none.client.getServerCapabilities()?.prompts).toBeUndefined();
    const two = await server({ argv: ['--tools', 'translation_translate_text,textgen_create_completion'] });
    expect((await two.client.listPrompts()).prompts.map((p) => p.name)).toEqual([
      'translate_and_summarize',
      'summarize_and_translate',
    ]);
    const rendered = await two.client.getPrompt({
      name: 'translate_and_summarize',
      arguments: { text: 'Hello.', target: 'ko' },
    });
    expect(JSON.stringify(rendered)).not.toContain('The tool translate_and_summarize');
    const all = await server();
    const full = await all.client.getPrompt({
      name: 'translate_and_summarize',
      arguments: { text: 'Hello.', target: 'ko' },
    });
    expect(JSON.stringify(full)).toContain('The tool translate_and_summarize runs these same steps');
  });

  it('combines with read-only mode by intersection', async () => {
    const h = await server({ argv: ['--read-only', '--tools', 'kms_migrate_key,search_list_tokenizer_languages'] });
    expect(await names(h)).toEqual(['search_list_tokenizer_languages']);
  });

  it("a client's narrowing only takes tools away", async () => {
    const h = await server({
      argv: ['--tools', 'search_list_tokenizer_languages,kms_migrate_key'],
      narrowing: { tools: ['kms_migrate_key', 'recommendation_delete_service'] },
    });
    expect(await names(h)).toEqual(['kms_migrate_key']);
    expect(
      text(await call(h, 'recommendation_delete_service', { serviceId: 'rcs-home-feed', confirm: 'rcs-home-feed' })),
    ).toMatch(/not_enabled/);
    const readOnly = await server({ narrowing: { readOnly: true } });
    expect(await names(readOnly)).toEqual(READ_ONLY_TOOLS);
    // false cannot undo the operator's read-only mode.
    const stays = await server({ argv: ['--read-only'], narrowing: { readOnly: false } });
    expect(await names(stays)).toEqual(READ_ONLY_TOOLS);
  });
});

describe('confirmation of destructive calls, by a client without forms', () => {
  it('refuses without confirm, explaining the rule, and sends nothing', async () => {
    const h = await server();
    const result = await call(h, 'recommendation_delete_service', { serviceId: 'rcs-home-feed' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'recommendation_delete_service failed [not_confirmed]: recommendation_delete_service needs confirmation: tell the user ' +
        'what will happen, and only if they agree call again with confirm set to the serviceId ("rcs-home-feed"). Nothing was sent. ' +
        '(The recommendation service "rcs-home-feed" will be deleted.)',
    );
    expect(sent(h)).toBe(0);
  });

  it('refuses a confirm that is not the id', async () => {
    const h = await server();
    const result = await call(h, 'kms_migrate_key', {
      keyTag: 'kt-orders-3f9a1c',
      targetRegion: 'JPN',
      confirm: 'yes',
    });
    expect(text(result)).toMatch(
      /\[not_confirmed\]: confirm must equal the keyTag \("kt-orders-3f9a1c"\), got "yes"\. Nothing was sent\./,
    );
    expect(text(result)).toContain(
      'The global key "kt-orders-3f9a1c" will be converted into an isolation key usable only in the JPN Region',
    );
    expect(sent(h)).toBe(0);
  });

  it('sends the call when confirm is the id, and confirm never reaches the upstream', async () => {
    const h = await server();
    const result = await call(h, 'kms_migrate_key', {
      keyTag: 'kt-orders-3f9a1c',
      targetRegion: 'JPN',
      confirm: 'kt-orders-3f9a1c',
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(sent(h)).toBe(1);
    expect(JSON.parse(h.sandbox.requests.last()!.body)).toEqual({ targetRegion: 'JPN' });
  });

  it('checks the arguments before asking for confirmation', async () => {
    const h = await server();
    const result = await call(h, 'kms_migrate_key', { keyTag: 'k1', targetRegion: 'SGN' });
    expect(text(result)).toMatch(/\[invalid_input\].*targetRegion/s);
  });

  it('--no-confirm runs destructive calls at once and does not list confirm', async () => {
    const h = await server({ argv: ['--no-confirm'] });
    const tool = (await h.client.listTools()).tools.find((t) => t.name === 'recommendation_delete_service')!;
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(['serviceId', 'dryRun']);
    const result = await call(h, 'recommendation_delete_service', { serviceId: 'rcs-home-feed' });
    expect(result.isError, text(result)).toBeFalsy();
    expect(sent(h)).toBe(1);
    expect(h.client.getInstructions()).toMatch(
      /recommendation_delete_service and kms_migrate_key destroy things and run at once on this server: ask the user first/,
    );
  });
});

describe('confirmation of destructive calls, by a client that shows forms', () => {
  const answering = (answer: (request: ElicitRequest) => ElicitResult) => {
    const asked: ElicitRequest[] = [];
    return {
      asked,
      elicit: (request: ElicitRequest) => {
        asked.push(request);
        return answer(request);
      },
    };
  };

  it('asks the user to type the id, with what will happen, and sends the call when they do', async () => {
    const form = answering(() => ({ action: 'accept', content: { keyTag: 'kt-payments-7b2e4d' } }));
    const h = await server({ elicit: form.elicit });
    const result = await call(h, 'kms_migrate_key', { keyTag: 'kt-payments-7b2e4d', targetRegion: 'KR' });
    expect(result.isError, text(result)).toBeFalsy();
    expect(form.asked).toHaveLength(1);
    const params = form.asked[0]!.params as {
      message: string;
      requestedSchema: { properties: object; required: string[] };
    };
    expect(params.message).toBe(
      'The global key "kt-payments-7b2e4d" will be converted into an isolation key usable only in the KR Region, and the global key will be deleted.\n\n' +
        'To confirm, type the keyTag: kt-payments-7b2e4d',
    );
    expect(params.requestedSchema.required).toEqual(['keyTag']);
    expect(sent(h)).toBe(1);
  });

  it.each([
    ['declines', { action: 'decline' }, /the user declined\. Nothing was sent\./],
    [
      'cancels',
      { action: 'cancel' },
      /the user cancelled the confirmation \(if no one can answer forms .*--no-confirm \(SVC_CONFIRM_DESTRUCTIVE=false\).*the confirm argument\)\. Nothing was sent\./,
    ],
    [
      'types another id',
      { action: 'accept', content: { serviceId: 'rcs-cart-upsell' } },
      /the user typed "rcs-cart-upsell", not the serviceId "rcs-home-feed"\. Nothing was sent\./,
    ],
  ] as const)('sends nothing when the user %s', async (_, answer, message) => {
    const h = await server({ elicit: () => answer as ElicitResult });
    const result = await call(h, 'recommendation_delete_service', {
      serviceId: 'rcs-home-feed',
      confirm: 'rcs-home-feed',
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/\[not_confirmed\]/);
    expect(text(result)).toMatch(message);
    expect(sent(h)).toBe(0);
  });

  it('a form left unanswered ends the call after five minutes, saying so (not "could not be shown"), nothing sent', async () => {
    const h = await server({ elicit: () => new Promise<ElicitResult>(() => {}) });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const pending = h.client.callTool(
        { name: 'recommendation_delete_service', arguments: { serviceId: 'rcs-home-feed' } },
        undefined,
        {
          timeout: 10 * 60_000,
        },
      );
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      const result = (await pending) as CallToolResult;
      expect(text(result)).toMatch(
        /\[not_confirmed\]: the confirmation form was not answered within 5 minutes\. Nothing was sent\./,
      );
      expect(sent(h)).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the time a user takes with the form does not count toward SVC_TIMEOUT_MS', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const h = await server({
        env: { SVC_TIMEOUT_MS: '1000' },
        elicit: () => {
          // The user takes two seconds, twice the call's timeout, to type the id.
          vi.setSystemTime(Date.now() + 2000);
          return { action: 'accept', content: { serviceId: 'rcs-home-feed' } };
        },
      });
      const result = await call(h, 'recommendation_delete_service', { serviceId: 'rcs-home-feed' });
      expect(result.isError, text(result)).toBeFalsy();
      expect(sent(h)).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes `confirm` from a host that declares forms but answers elicitation/create with -32601', async () => {
    const h = await server({ formsDeclaredOnly: true });
    const refused = await call(h, 'recommendation_delete_service', { serviceId: 'rcs-home-feed' });
    expect(text(refused)).toMatch(
      /\[not_confirmed\]: recommendation_delete_service needs confirmation \(its host shows no forms\): .*confirm set to the serviceId \("rcs-home-feed"\)/,
    );
    expect(sent(h)).toBe(0);
    const confirmed = await call(h, 'recommendation_delete_service', {
      serviceId: 'rcs-home-feed',
      confirm: 'rcs-home-feed',
    });
    expect(confirmed.isError, text(confirmed)).toBeFalsy();
    expect(sent(h)).toBe(1);
  });

  it('sends nothing when the form cannot be shown', async () => {
    const h = await server({
      elicit: () => {
        throw new Error('no UI');
      },
    });
    const result = await call(h, 'recommendation_delete_service', { serviceId: 'rcs-home-feed' });
    expect(text(result)).toMatch(
      /\[not_confirmed\]: the confirmation form could not be shown \(.*no UI.*\)\. Nothing was sent\./,
    );
    expect(sent(h)).toBe(0);
  });
});

describe('dry runs', () => {
  const MUTATIONS: [string, Record<string, unknown>, string, string, unknown][] = [
    [
      'dataflow_update_job_execution_options',
      { jobId: 'job-orders-daily', jobCondition: { nrn: 'n', scriptPath: 's', logPath: 'l' } },
      'PUT',
      '/api/v1/jobs/job-orders-daily/executions',
      { jobCondition: { nrn: 'n', scriptPath: 's', logPath: 'l' } },
    ],
    [
      'apigateway_create_method_response',
      { productId: 'prd-orders', apiId: 'api-orders-v1', resourceId: 'res-orders', methodName: 'GET', statusCode: 404 },
      'POST',
      '/api/v1/products/prd-orders/apis/api-orders-v1/resources/res-orders/methods/GET/responses',
      { statusCode: 404 },
    ],
    [
      'datacatalog_run_scanner',
      { catalogId: 1001, scannerId: 2001 },
      'PUT',
      '/api/v1/catalogs/1001/scanners/2001/run-scanner',
      undefined,
    ],
    [
      'recommendation_delete_service',
      { serviceId: 'rcs-home-feed' },
      'DELETE',
      '/api/v1/services/rcs-home-feed',
      undefined,
    ],
    [
      'search_update_schema',
      { name: 'products', document: { primarySectionName: 'body', sections: [], indexes: [] } },
      'PUT',
      '/CloudSearch/real/v1/domain/products/schema',
      { document: { primarySectionName: 'body', sections: [], indexes: [] } },
    ],
    [
      'kms_migrate_key',
      { keyTag: 'kt-orders-3f9a1c', targetRegion: 'JPN' },
      'PUT',
      '/kms/v1/keys/kt-orders-3f9a1c/migrate',
      { targetRegion: 'JPN' },
    ],
  ];

  it.each(MUTATIONS)(
    '%s: returns the request with the signature redacted, sends nothing, asks no one',
    async (tool, args, method, path, body) => {
      const form = { asked: 0 };
      const h = await server({
        elicit: () => {
          form.asked += 1;
          return { action: 'decline' };
        },
      });
      const result = await call(h, tool, { ...args, dryRun: true });
      expect(result.isError, text(result)).toBeFalsy();
      const dryRun = (result.structuredContent as { dryRun: Record<string, unknown> }).dryRun;
      expect(dryRun.method).toBe(tool === 'kms_migrate_key' ? 'POST' : method);
      expect(dryRun.url).toBe(`${h.sandbox.url}${path}`);
      expect(dryRun.body).toEqual(body);
      expect(dryRun.sent).toBe(false);
      const headers = dryRun.headers as Record<string, string>;
      expect(headers['x-svc-apigw-signature-v2']).toBe('[redacted]');
      expect(headers['x-svc-iam-access-key']).toBe(h.sandbox.credentials.accessKey);
      expect(headers['x-svc-apigw-timestamp']).toMatch(/^\d{13}$/);
      // The result says why the signature cannot be read off it: a real send signs again, over a fresh timestamp.
      expect(dryRun.note).toBe(
        'Nothing was sent. Nothing upstream was checked either: not whether the target exists, nor whether the call ' +
          'would succeed. The signature (x-svc-apigw-signature-v2) is redacted: a real send signs again, with a ' +
          'fresh timestamp (x-svc-apigw-timestamp), on each attempt.',
      );
      expect(text(result)).toContain('a real send signs again, with a fresh timestamp');
      expect(JSON.stringify(result)).not.toContain(h.sandbox.credentials.secretKey);
      expect(sent(h)).toBe(0);
      expect(form.asked).toBe(0);
    },
  );

  it('is refused as an unknown argument by a read-only tool, and must be a boolean', async () => {
    const h = await server();
    expect(text(await call(h, 'search_list_tokenizer_languages', { dryRun: true }))).toMatch(
      /unknown argument\(s\) "dryRun"/,
    );
    expect(text(await call(h, 'datacatalog_run_scanner', { catalogId: 1001, scannerId: 2001, dryRun: 'yes' }))).toMatch(
      /\[invalid_input\].*dryRun/s,
    );
    expect(sent(h)).toBe(0);
  });
});
