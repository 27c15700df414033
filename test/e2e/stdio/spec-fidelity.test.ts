/**
 * Issue 11 and 13 defects, through the built server over stdio against a recording upstream: each case failed
 * before its fix. Wrong input is refused by name (never an internal error), what the spec allows is sent, and an
 * upstream's failures, echoes and strange bodies come back as clear, clean tool errors.
 */
import { gzipSync } from 'node:zlib';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { spawnServer, textOf, type SpawnedServer } from '../../helpers/spawn-server.js';
import { CREDENTIALS, fullEnv, splitUrl } from '../../helpers/upstream.js';

let upstream: RecordingServer;
let server: SpawnedServer;
beforeAll(async () => {
  upstream = await startRecordingServer();
  server = await spawnServer(fullEnv(upstream.url));
}, 30_000);
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const refused = (result: CallToolResult, field: RegExp) => {
  expect(result.isError).toBe(true);
  const text = textOf(result);
  expect(text).toMatch(/\[invalid_input\]/);
  expect(text).toMatch(field);
  expect(text).not.toMatch(/internal error/);
  expect(upstream.requests).toHaveLength(0);
};

describe('E7 64-bit offset and limit', () => {
  it.each(['abc', '12a', '1.5', 'NaN', '-1', ' 1'])('refuses %j by name, never as an internal error', async (value) => {
    refused(
      await server.call('apigateway_list_products', { offset: value }),
      /offset: must be a decimal integer string >= 0/,
    );
  });

  it('says in the schema what it accepts, and holds to it', async () => {
    const tool = server.tools.find((t) => t.name === 'apigateway_list_products')!;
    const offset = tool.inputSchema.properties!.offset as { anyOf: Record<string, unknown>[]; description: string };
    expect(offset.anyOf[0]).toEqual({ type: 'integer', minimum: 0, maximum: 9007199254740991 });
    expect(offset.description).toMatch(/decimal string up to 2\^63-1/);
    refused(
      await server.call('apigateway_list_products', { limit: 9007199254740992 }),
      /limit: .*(maximum 9007199254740991|2\^63)/s,
    );
    refused(
      await server.call('apigateway_list_products', { offset: '9223372036854775808' }),
      /offset: must be at most 9223372036854775807/,
    );
    upstream.reply({ body: { initialCount: 0, productPage: { total: 0, content: [] } } });
    const ok = await server.call('apigateway_list_products', {
      offset: '9223372036854775807',
      limit: 9007199254740991,
    });
    expect(ok.isError, textOf(ok)).toBeFalsy();
    expect(splitUrl(upstream.requests[0]!.url).query).toEqual(['limit=9007199254740991', 'offset=9223372036854775807']);
  });
});

describe('null in an optional argument means "not given"', () => {
  it('E5 sourcecrs null, E4 jobCondition.numWorker null, E7 every filter null', async () => {
    upstream.reply({ body: { status: { code: 0, name: 'ok' }, results: [] } });
    const geocoded = await server.call('maps_reverse_geocode', {
      coords: '127.1,37.5',
      sourcecrs: null,
      callback: null,
    });
    expect(geocoded.isError, textOf(geocoded)).toBeFalsy();
    expect(splitUrl(upstream.requests[0]!.url).query).toEqual(['coords=127.1%2C37.5', 'output=json']);

    upstream.reply({ body: { jobId: 'j1' } });
    const job = await server.call('dataflow_update_job_execution_options', {
      jobId: 'j1',
      jobCondition: { numWorker: null, timeout: null, nrn: 'n', scriptPath: 's', logPath: 'l' },
      dryRun: null,
    });
    expect(job.isError, textOf(job)).toBeFalsy();
    expect(JSON.parse(upstream.requests[1]!.body)).toEqual({
      jobCondition: { nrn: 'n', scriptPath: 's', logPath: 'l' },
    });
  });

  it('a required argument that is null is still required', async () => {
    refused(await server.call('maps_reverse_geocode', { coords: null }), /coords: is required/);
  });
});

it('E5 takes the coordinate codes in any case (the spec writes them in lower case) and sends them as documented', async () => {
  upstream.reply({ body: { status: { code: 0, name: 'ok' }, results: [] } });
  const result = await server.call('maps_reverse_geocode', {
    coords: '127.1,37.5',
    sourcecrs: 'epsg:4326',
    targetcrs: 'svc:2048',
  });
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(splitUrl(upstream.requests[0]!.url).query).toContain('sourcecrs=EPSG%3A4326');
  expect(splitUrl(upstream.requests[0]!.url).query).toContain('targetcrs=SVC%3A2048');
});

describe('answers the spec lists under errors', () => {
  it('E9 success: false is a tool error with the message; availableName: false is an answer', async () => {
    upstream.reply({ body: { success: false, availableName: false, message: 'account not found' } });
    const failed = await server.call('bigdata_check_app_name', { accountId: 'abc', name: 'my-app' });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/\[upstream_error\].*account not found/);
    upstream.reply({ body: { success: true, availableName: false, message: 'name is taken' } });
    const taken = await server.call('bigdata_check_app_name', { accountId: 'abc', name: 'my-app' });
    expect(taken.isError).toBeFalsy();
    expect(taken.structuredContent).toEqual({ success: true, availableName: false, message: 'name is taken' });
  });

  it('E15 code FAIL carries whatever the body says', async () => {
    upstream.reply({ body: { code: 'FAIL', data: { reason: 'an isolation key of that name exists in JPN' } } });
    const result = await server.call('kms_migrate_key', { keyTag: 'k1', targetRegion: 'JPN', confirm: 'k1' });
    expect(textOf(result)).toMatch(
      /upstream error FAIL: \{"data":\{"reason":"an isolation key of that name exists in JPN"\}\}/,
    );
  });

  it('E6 answered 2xx without methodResponseDto says the response may already have been added', async () => {
    upstream.reply({ status: 201, body: { ok: true } });
    const result = await server.call('apigateway_create_method_response', {
      productId: 'p',
      apiId: 'a',
      resourceId: 'r',
      methodName: 'GET',
      statusCode: 200,
    });
    expect(textOf(result)).toMatch(
      /accepted the request \(HTTP 201\), so it may have taken effect: check before calling again/,
    );
  });

  it('a megabyte of details becomes a short error', async () => {
    upstream.reply({
      status: 400,
      body: { error: { errorCode: '100', message: 'bad', details: 'x'.repeat(1_000_000) } },
    });
    const result = await server.call('search_list_tokenizer_languages', {});
    expect(textOf(result).length).toBeLessThan(2000);
  });
});

describe('input hygiene', () => {
  it('refuses a document nested deeper than 32 levels by name', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200; i++) deep = { a: deep };
    refused(
      await server.call('search_update_schema', {
        name: 'd',
        document: { primarySectionName: 'p', sections: [deep], indexes: [] },
      }),
      /nested deeper than 32 levels/,
    );
  });

  it('refuses a lone surrogate in a path or query value by name', async () => {
    refused(
      await server.call('recommendation_delete_service', { serviceId: 'a\uD800b', confirm: 'a\uD800b' }),
      /serviceId: must be valid Unicode text/,
    );
    refused(
      await server.call('apigateway_list_products', { productName: '\uDC00' }),
      /productName: must be valid Unicode text/,
    );
  });

  it('refuses __proto__, constructor or prototype keys at any depth, naming the first found: nothing is sent', async () => {
    const document = JSON.parse(
      '{"primarySectionName":"p","sections":[{"name":"s","__proto__":{"polluted":1},"constructor":{"x":1}}],"indexes":[],"prototype":2}',
    );
    await expect(server.call('search_update_schema', { name: 'd', document })).rejects.toThrow(
      /Invalid params: arguments\.document\.(sections\.0\.(__proto__|constructor)|prototype): refused/,
    );
    expect(upstream.requests).toHaveLength(0);
  });

  it('E5 xml that comes back compressed is an error, not a result', async () => {
    upstream.reply({
      headers: { 'content-type': 'text/xml', 'content-encoding': 'gzip' },
      body: gzipSync('<response/>'),
    });
    const result = await server.call('maps_reverse_geocode', { coords: '127.1,37.5', output: 'xml' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/\[malformed_response\].*not UTF-8 text \(Content-Encoding: gzip/);
  });
});

it('an upstream that echoes the request headers in an error leaks neither the signature nor a key', async () => {
  upstream.setFallback((req) => ({
    status: 400,
    body: { error: { errorCode: '100', message: 'bad', details: JSON.stringify(req.headers) } },
  }));
  const signed = await server.call('search_list_tokenizer_languages', {});
  const signature = upstream.requests[0]!.headers['x-svc-apigw-signature-v2'] as string;
  expect(textOf(signed)).not.toContain(signature);
  expect(textOf(signed)).toMatch(/x-svc-apigw-signature-v2[^,]*\[redacted\]/);
  const studio = await server.call('textgen_create_completion', { text: 'hi' });
  expect(textOf(studio)).not.toContain(CREDENTIALS.SVC_STUDIO_API_KEY);
  expect(textOf(studio)).not.toContain(CREDENTIALS.SVC_STUDIO_GATEWAY_KEY);
  expect(textOf(studio)).not.toContain(CREDENTIALS.SVC_STUDIO_GATEWAY_KEY.slice(0, 20));
});
