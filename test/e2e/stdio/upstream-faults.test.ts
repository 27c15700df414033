/**
 * Upstream faults through the real server (dist/cli.js over stdio): each one is a tool error an agent can act
 * on (isError, no structuredContent), retries happen only where they are safe and within SVC_TIMEOUT_MS, the
 * same server keeps serving afterwards, and no secret ever shows up in a result or on stderr.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startRecordingServer,
  type RecordedRequest,
  type Reply,
  type RecordingServer,
} from '../../helpers/recording-server.js';
import { spawnServer, textOf, type SpawnedServer } from '../../helpers/spawn-server.js';
import { CREDENTIALS, SECRETS, expectGatewaySignature, fullEnv } from '../../helpers/upstream.js';

const TIMEOUT_MS = 1500;

let upstream: RecordingServer;
let server: SpawnedServer;

beforeAll(async () => {
  upstream = await startRecordingServer();
  server = await spawnServer(fullEnv(upstream.url, { SVC_TIMEOUT_MS: String(TIMEOUT_MS) }));
}, 30_000);

afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

beforeEach(() => upstream.reset());

const LANGUAGES = [{ language: 'thai', type: 'hanaterm', method: 'sgmt', option: '+thai' }];

/** A tool error: isError, no structuredContent, and text free of secrets. Returns the text. */
function expectToolError(result: CallToolResult): string {
  const text = textOf(result);
  expect(result.isError, text).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  for (const secret of SECRETS) expect(text).not.toContain(secret);
  return text;
}

/** After a fault the same server still answers a good call. */
async function expectStillServing(): Promise<void> {
  upstream.reset();
  upstream.reply({ body: LANGUAGES });
  const result = await server.call('search_list_tokenizer_languages', {});
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(result.structuredContent).toEqual({ languages: LANGUAGES });
  expect(upstream.requests).toHaveLength(1);
}

describe('gateway and HTTP errors', () => {
  it('401 with the gateway error body: code 200, its message and details, no retry', async () => {
    upstream.reply({
      status: 401,
      body: {
        error: { errorCode: '200', message: 'Authentication Failed', details: 'Invalid authentication information.' },
      },
    });
    const text = expectToolError(await server.call('recommendation_get_default_schema', { datasetType: 'user' }));
    expect(text).toContain('200');
    expect(text).toContain('Authentication Failed');
    expect(text).toContain('Invalid authentication information.');
    expect(text).toContain('401');
    expect(upstream.requests).toHaveLength(1);
    await expectStillServing();
  });

  it('404 with the gateway not-found body', async () => {
    upstream.reply({
      status: 404,
      body: { error: { errorCode: '300', message: 'Not Found', details: 'No such service: svc-9' } },
    });
    const text = expectToolError(
      await server.call('recommendation_delete_service', { serviceId: 'svc-9', confirm: 'svc-9' }),
    );
    expect(text).toContain('404');
    expect(text).toContain('300');
    expect(text).toContain('No such service: svc-9');
    expect(upstream.requests).toHaveLength(1);
    await expectStillServing();
  });

  it('404 with an empty body', async () => {
    upstream.reply({ status: 404 });
    const text = expectToolError(await server.call('search_list_tokenizer_languages', {}));
    expect(text).toContain('404');
    expect(upstream.requests).toHaveLength(1);
    await expectStillServing();
  });

  it('500 with an HTML body: the status and a short, tag-free excerpt', async () => {
    const html =
      '<!DOCTYPE html><html><head><title>500 Internal Server Error</title><style>body { color: red }</style></head>' +
      `<body><h1>Internal Server Error</h1><p>The upstream broke.</p>${'<p>filler</p>'.repeat(200)}</body></html>`;
    upstream.reply({ status: 500, headers: { 'content-type': 'text/html' }, body: html });
    const text = expectToolError(await server.call('streaming_list_server_images', {}));
    expect(text).toContain('500');
    expect(text).toContain('Internal Server Error');
    expect(text).toContain('The upstream broke.');
    expect(text).not.toMatch(/<[a-z!/]/i);
    expect(text).not.toContain('color: red');
    expect(text.length).toBeLessThan(1000);
    expect(upstream.requests).toHaveLength(1);
    await expectStillServing();
  });
});

// Backoff, Retry-After waits, the deadline over all attempts and cancellation are timed in process with fake
// timers (test/upstream/exchange.test.ts); here the built server shows the same policy on the wire.
describe('429 and retries', () => {
  it('a read-only tool retries after Retry-After, signing each attempt afresh', async () => {
    upstream.reply(
      {
        status: 429,
        headers: { 'retry-after': '1' },
        body: { error: { errorCode: '420', message: 'Rate limit exceeded' } },
      },
      { body: LANGUAGES },
    );
    const result = await server.call('search_list_tokenizer_languages', {});
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(result.structuredContent).toEqual({ languages: LANGUAGES });
    expect(upstream.requests).toHaveLength(2);
    const [first, second] = upstream.requests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
    expectGatewaySignature(first!);
    expectGatewaySignature(second!);
    expect(second!.headers['x-svc-apigw-timestamp']).not.toBe(first!.headers['x-svc-apigw-timestamp']);
    expect(second!.headers['x-svc-apigw-signature-v2']).not.toBe(first!.headers['x-svc-apigw-signature-v2']);
    await expectStillServing();
  });

  it('a non-idempotent tool (datacatalog_run_scanner) is not retried', async () => {
    upstream.reply({
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { errorCode: '420', message: 'Rate limit exceeded' } },
    });
    upstream.setFallback({ body: { scannerId: 2, name: 's', status: 'SCANNER_STARTING' } });
    const text = expectToolError(await server.call('datacatalog_run_scanner', { catalogId: 1, scannerId: 2 }));
    expect(text).toContain('429');
    expect(upstream.requests).toHaveLength(1);
    await expectStillServing();
  });
});

describe('broken answers and connections', () => {
  it('malformed JSON on 200', async () => {
    upstream.reply({ headers: { 'content-type': 'application/json' }, body: '{"datasetType": "user", "fields": [' });
    const text = expectToolError(await server.call('recommendation_get_default_schema', { datasetType: 'user' }));
    expect(text).toMatch(/not valid JSON/i);
    expect(text).toContain('200');
    expect(upstream.requests).toHaveLength(1);
    await expectStillServing();
  });

  it('HTML on 200 where JSON is expected', async () => {
    upstream.reply({ headers: { 'content-type': 'text/html' }, body: '<html><body>Maintenance</body></html>' });
    const text = expectToolError(
      await server.call('kms_migrate_key', { keyTag: 'k1', targetRegion: 'KR', confirm: 'k1' }),
    );
    expect(text).toMatch(/not valid JSON/i);
    expect(text).toContain('Maintenance');
    await expectStillServing();
  });

  it('connection reset on a non-idempotent tool: one attempt, reported as a reset', async () => {
    upstream.reply({ reset: true });
    const text = expectToolError(await server.call('datacatalog_run_scanner', { catalogId: 1, scannerId: 2 }));
    expect(text).toMatch(/reset|ECONNRESET/i);
    expect(upstream.requests).toHaveLength(1);
    await expectStillServing();
  });

  it('connection reset on a read-only tool is retried (up to three attempts)', async () => {
    upstream.setFallback({ reset: true });
    const text = expectToolError(await server.call('recommendation_get_default_schema', { datasetType: 'user' }));
    expect(text).toMatch(/reset|ECONNRESET/i);
    expect(upstream.requests).toHaveLength(3);
    await expectStillServing();
  });

  it('connection reset once, then a good answer: the read-only call succeeds', async () => {
    upstream.reply({ reset: true }, { body: LANGUAGES });
    const result = await server.call('search_list_tokenizer_languages', {});
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(upstream.requests).toHaveLength(2);
  });

  it('a hang longer than SVC_TIMEOUT_MS is reported as a timeout, and the server keeps serving', async () => {
    upstream.reply({ hang: true });
    const text = expectToolError(await server.call('search_list_tokenizer_languages', {}));
    expect(text).toMatch(/\[timeout\].*within 1500 ms \(SVC_TIMEOUT_MS\)/);
    expect(upstream.requests).toHaveLength(1);
    await expectStillServing();
  });
});

describe("services' own error codes", () => {
  it('translation: N2MT code and message', async () => {
    upstream.reply({ status: 400, body: { errorMessage: 'Unsupported source language', errorCode: 'N2MT02' } });
    const text = expectToolError(
      await server.call('translation_translate_text', { source: 'ko', target: 'en', text: '안녕' }),
    );
    expect(text).toContain('N2MT02');
    expect(text).toContain('Unsupported source language');
    expect(text).toContain('400');
    await expectStillServing();
  });

  it('maps: status code 100 (invalid request) on HTTP 400', async () => {
    upstream.reply({
      status: 400,
      body: { status: { code: 100, name: 'invalid request', message: 'coords is out of range' } },
    });
    const text = expectToolError(await server.call('maps_reverse_geocode', { coords: '0,0' }));
    expect(text).toContain('100');
    expect(text).toContain('invalid request');
    expect(text).toContain('coords is out of range');
    await expectStillServing();
  });

  it('maps: status code 900 on HTTP 200 is an error too', async () => {
    upstream.reply({ body: { status: { code: 900, name: 'unknown error', message: 'io error' }, results: [] } });
    const text = expectToolError(await server.call('maps_reverse_geocode', { coords: '127,37' }));
    expect(text).toContain('900');
    expect(text).toContain('unknown error');
    await expectStillServing();
  });

  it('maps: status code 3 (no results) is a normal answer', async () => {
    const body = { status: { code: 3, name: 'no results', message: 'no results' }, results: [] };
    upstream.reply({ body });
    const result = await server.call('maps_reverse_geocode', { coords: '129.5,35.0' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(body);
  });

  it('text generation: a status code other than 20000', async () => {
    upstream.reply({ status: 400, body: { status: { code: '40003', message: 'Text too long' } } });
    const text = expectToolError(await server.call('textgen_create_completion', { text: 'hi' }));
    expect(text).toContain('40003');
    expect(text).toContain('Text too long');
    upstream.reset();
    upstream.reply({ body: { status: { code: '50000', message: 'Internal server error' } } });
    const text2 = expectToolError(await server.call('textgen_create_completion', { text: 'hi' }));
    expect(text2).toContain('50000');
    expect(text2).toContain('Internal server error');
    await expectStillServing();
  });

  it('streaming: envelope code other than 0 on HTTP 200', async () => {
    upstream.reply({ body: { code: 11001, message: 'Invalid kafkaVersionCode', requestId: 'r-1', result: {} } });
    const text = expectToolError(await server.call('streaming_list_config_groups', { kafkaVersionCode: 999 }));
    expect(text).toContain('11001');
    expect(text).toContain('Invalid kafkaVersionCode');
    await expectStillServing();
  });

  it('key management: code other than SUCCESS', async () => {
    upstream.reply({ body: { code: 'FAIL', message: 'An isolation key with the same name already exists' } });
    const text = expectToolError(
      await server.call('kms_migrate_key', { keyTag: 'k1', targetRegion: 'KR', confirm: 'k1' }),
    );
    expect(text).toContain('FAIL');
    expect(text).toContain('An isolation key with the same name already exists');
    await expectStillServing();
  });
});

describe('secrets', () => {
  /** A 400 gateway error whose details echo every request header back. */
  const echoHeaders = (req: RecordedRequest): Reply => ({
    status: 400,
    body: { error: { errorCode: '100', message: 'Bad request', details: JSON.stringify(req.headers) } },
  });

  it('an upstream that echoes the request headers (app key pair) does not leak the client secret', async () => {
    upstream.reply(echoHeaders);
    const text = expectToolError(
      await server.call('translation_translate_text', { source: 'en', target: 'ko', text: 'hi' }),
    );
    expect(text).toContain('Bad request');
    expect(text).toContain(CREDENTIALS.SVC_TRANSLATION_CLIENT_ID); // not a secret: shows the echo did happen
    expect(text).not.toContain(CREDENTIALS.SVC_TRANSLATION_CLIENT_SECRET);
  });

  it('an upstream that echoes the studio keys does not leak them', async () => {
    upstream.reply(echoHeaders);
    const text = expectToolError(await server.call('textgen_create_completion', { text: 'hi' }));
    expect(text).toContain('x-svc-studio-request-id');
    expect(text).not.toContain(CREDENTIALS.SVC_STUDIO_API_KEY);
    expect(text).not.toContain(CREDENTIALS.SVC_STUDIO_GATEWAY_KEY);
  });

  it('an upstream that echoes the lower-case app key pair (maps) does not leak it', async () => {
    upstream.reply((req) => ({
      status: 400,
      body: { status: { code: 100, name: 'invalid request', message: JSON.stringify(req.headers) } },
    }));
    const text = expectToolError(await server.call('maps_reverse_geocode', { coords: '127,37' }));
    expect(text).toContain(CREDENTIALS.SVC_CLIENT_ID);
    expect(text).not.toContain(CREDENTIALS.SVC_CLIENT_SECRET);
  });

  it('a secret key echoed in error details or in a successful answer is redacted', async () => {
    upstream.reply({
      status: 403,
      body: {
        error: {
          errorCode: '210',
          message: 'Permission Denied',
          details: `key ${CREDENTIALS.SVC_SECRET_KEY} lacks rights`,
        },
      },
    });
    const text = expectToolError(
      await server.call('recommendation_delete_service', { serviceId: 's1', confirm: 's1' }),
    );
    expect(text).toContain('Permission Denied');
    expect(text).toContain('lacks rights');

    upstream.reset();
    upstream.reply({
      body: { datasetType: 'user', name: 'user', description: `made with ${CREDENTIALS.SVC_SECRET_KEY}`, fields: [] },
    });
    const ok = await server.call('recommendation_get_default_schema', { datasetType: 'user' });
    expect(ok.isError).toBeFalsy();
    const all = JSON.stringify(ok);
    for (const secret of SECRETS) expect(all).not.toContain(secret);
    expect((ok.structuredContent as { name: string }).name).toBe('user');
  });

  it('stderr never carried a secret, and the server is still up', async () => {
    await expectStillServing();
    const stderr = server.stderr();
    for (const secret of SECRETS) expect(stderr).not.toContain(secret);
  });
});

// Issue 33, item 7: what a failure says of the request's effect, its retries and its cost.
describe('what a failure says it did', () => {
  const gatewayError = (errorCode: string, message: string) => ({ error: { errorCode, message, details: 'd' } });

  const REFUSALS: [string, number][] = [
    ['100', 400],
    ['200', 401],
    ['210', 403],
    ['300', 404],
    ['400', 429],
    ['430', 413],
  ];
  for (const [code, status] of REFUSALS) {
    it(`a write refused with gateway code ${code} (HTTP ${status}) was sent, once, and changed nothing`, async () => {
      upstream.reply({ status, body: gatewayError(code, 'refused') });
      const text = expectToolError(
        await server.call('apigateway_create_method_response', {
          productId: 'p1',
          apiId: 'a1',
          resourceId: 'r1',
          methodName: 'GET',
          statusCode: 200,
        }),
      );
      expect(text).toContain(`gateway error ${code}: refused.`);
      expect(text).toMatch(
        new RegExp(`The request was sent and refused \\(HTTP ${status}\\): nothing was changed\\.$`),
      );
      expect(upstream.requests).toHaveLength(1);
    });
  }

  it('E15 answered code FAIL was sent and changed nothing', async () => {
    upstream.reply({ body: { code: 'FAIL', message: 'an isolation key of that name exists' } });
    const text = expectToolError(
      await server.call('kms_migrate_key', { keyTag: 'k1', targetRegion: 'KR', confirm: 'k1' }),
    );
    expect(text).toMatch(
      /an isolation key of that name exists\. The request was sent and refused: nothing was changed\.$/,
    );
    expect(upstream.requests).toHaveLength(1);
  });

  it('quota exceeded (gateway 400, HTTP 429) is not retried; a throttle (410, HTTP 429) is', async () => {
    upstream.setFallback({ status: 429, body: gatewayError('400', 'Quota Exceeded') });
    expectToolError(await server.call('search_list_tokenizer_languages', {}));
    expect(upstream.requests).toHaveLength(1);

    upstream.reset();
    upstream.setFallback({ status: 429, body: gatewayError('410', 'Throttle Limited') });
    const text = expectToolError(await server.call('search_list_tokenizer_languages', {}));
    expect(upstream.requests).toHaveLength(3);
    expect(text).toContain('(after 3 attempts)');
  });

  it('a Retry-After beyond the deadline is passed on for a gateway error body too', async () => {
    upstream.setFallback({ status: 429, headers: { 'retry-after': '60' }, body: gatewayError('420', 'Rate Limited') });
    const text = expectToolError(await server.call('search_list_tokenizer_languages', {}));
    expect(upstream.requests).toHaveLength(1);
    expect(text).toContain(
      'gateway error 420: Rate Limited. Details: d (HTTP 429) The upstream asked to retry after 60 s.',
    );
  });

  it('E12 after a 5xx or a reset says a billed completion may have been made', async () => {
    upstream.reply({ status: 500, body: { status: { code: '50000', message: 'Internal error' } } });
    const afterError = expectToolError(await server.call('textgen_create_completion', { text: 'Once upon a time' }));
    expect(afterError).toMatch(/A billed completion may have been made\.$/);
    expect(upstream.requests).toHaveLength(1);

    upstream.reset();
    upstream.reply({ reset: true });
    const afterReset = expectToolError(await server.call('textgen_create_completion', { text: 'Once upon a time' }));
    expect(afterReset).toMatch(/A billed completion may have been made\.$/);

    upstream.reset();
    upstream.reply({ status: 400, body: { status: { code: '40000', message: 'Bad request' } } });
    const refused = expectToolError(await server.call('textgen_create_completion', { text: 'Once upon a time' }));
    expect(refused).not.toContain('billed');
  });

  it('E3, retried on 503, says each attempt may have been billed per character', async () => {
    upstream.setFallback({ status: 503, body: 'unavailable' });
    const text = expectToolError(
      await server.call('translation_translate_text', { source: 'ko', target: 'en', text: '안녕하세요' }),
    );
    expect(upstream.requests).toHaveLength(3);
    expect(text).toMatch(/\(after 3 attempts\)\. Each of the 3 attempts may have been billed \(per character\)\.$/);
  });
});
