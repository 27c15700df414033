/**
 * What the 2026-07-28 revision asks of a server, on the wire: server/discover, -32022 for a version it does not
 * serve, resultType and cache fields, deterministic tools/list, the standard headers checked against the body,
 * resource not found as -32602, the per-request log level, and sealed confirmation state. Raw JSON-RPC over HTTP
 * against the built server, in both HTTP modes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHttpServer, type HttpServerProcess } from '../../helpers/spawn-http.js';
import { CREDENTIALS } from '../../helpers/upstream.js';

const VERSION = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

interface Rpc {
  status: number;
  /** Every JSON-RPC message of the answer (one for JSON, all data lines of an SSE stream). */
  messages: Record<string, unknown>[];
  /** The one with an id: the response. */
  response: {
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: Record<string, unknown> };
  };
}

let id = 0;
/**
 * One 2026-07-28 request: the envelope in _meta, the standard headers from the body unless `headers` says otherwise.
 */
async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  options: { meta?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<Rpc> {
  const name = (params.name ?? params.uri) as string | undefined;
  const { _meta: extraMeta, ...rest } = params as { _meta?: Record<string, unknown> };
  const meta = { ...ENVELOPE, ...options.meta, ...extraMeta };
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': String(meta['io.modelcontextprotocol/protocolVersion']),
      'mcp-method': method,
      ...(name !== undefined ? { 'mcp-name': name } : {}),
      ...options.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: { ...rest, _meta: meta } }),
  });
  const body = await response.text();
  const messages = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? body
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>)
    : [JSON.parse(body) as Record<string, unknown>];
  const found = messages.find((m) => 'id' in m && ('result' in m || 'error' in m)) ?? {};
  return { status: response.status, messages, response: found as Rpc['response'] };
}

const callTool = (
  url: string,
  name: string,
  args: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  meta?: Record<string, unknown>,
) => rpc(url, 'tools/call', { name, arguments: args, ...extra }, { meta });

for (const stateless of [false, true]) {
  describe(stateless ? '--stateless' : 'sessions mode', () => {
    let server: HttpServerProcess;
    beforeAll(async () => {
      server = await spawnHttpServer(['--sandbox', ...(stateless ? ['--stateless'] : [])]);
    }, 30_000);
    afterAll(() => server?.stop());

    it('server/discover names the versions served per request, the capabilities and the server', async () => {
      const { status, response } = await rpc(server.url, 'server/discover');
      expect(status).toBe(200);
      const result = response.result!;
      // The versions a request may name in its _meta; the 2025 ones are reached by initialize (tested in eras.test.ts).
      expect(result.supportedVersions).toEqual([VERSION]);
      expect(result.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {}, completions: {} });
      expect((result._meta as Record<string, { name: string }>)['io.modelcontextprotocol/serverInfo']!.name).toBe(
        'svc-platform-mcp',
      );
    });

    it('answers a version it does not serve with -32022 listing the supported ones', async () => {
      const { response } = await rpc(
        server.url,
        'tools/list',
        {},
        { meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      );
      expect(response.error?.code).toBe(-32022);
      expect(response.error?.data?.supported).toEqual(expect.arrayContaining([VERSION]));
    });

    it('tools/list: complete, cacheable for a while by this client, in the same order every time', async () => {
      const first = (await rpc(server.url, 'tools/list')).response.result!;
      const second = (await rpc(server.url, 'tools/list')).response.result!;
      expect(first.resultType).toBe('complete');
      expect(first.ttlMs).toBe(300_000);
      expect(first.cacheScope).toBe('private');
      const names = (r: Record<string, unknown>) => (r.tools as { name: string }[]).map((t) => t.name);
      expect(names(first)).toEqual(names(second));
      expect(names(first)[0]).toBe('streaming_list_config_groups');
      expect(names(first).at(-1)).toBe('translate_and_summarize');
      const read = (await rpc(server.url, 'resources/read', { uri: 'svc://search/tokenizer-languages' })).response
        .result!;
      expect(read).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'private' });
    });

    it('refuses a Mcp-Method header that disagrees with the body (-32020, HTTP 400)', async () => {
      const { status, response } = await rpc(
        server.url,
        'tools/list',
        {},
        { headers: { 'mcp-method': 'prompts/list' } },
      );
      expect(status).toBe(400);
      expect(response.error?.code).toBe(-32020);
    });

    it('answers an unknown resource with -32602 (the 2026-07-28 code)', async () => {
      const { response } = await rpc(server.url, 'resources/read', { uri: 'svc://search/nothing' });
      expect(response.error?.code).toBe(-32602);
    });

    it("a destructive call: an input request with sealed state; a retry with a tampered state or another call's is refused", async () => {
      const args = { serviceId: 'rcs-similar-item' };
      const first = (await callTool(server.url, 'recommendation_delete_service', args)).response.result!;
      expect(first.resultType).toBe('input_required');
      const form = (first.inputRequests as Record<string, { method: string; params: { message: string } }>)
        .confirmation!;
      expect(form.method).toBe('elicitation/create');
      expect(form.params.message).toMatch(/type the serviceId: rcs-similar-item$/);
      const state = first.requestState as string;
      const accept = { confirmation: { action: 'accept', content: { serviceId: 'rcs-similar-item' } } };

      const tampered = `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`;
      const refused = await callTool(server.url, 'recommendation_delete_service', args, {
        inputResponses: accept,
        requestState: tampered,
      });
      expect(refused.response.error?.code).toBe(-32602);

      const other = await callTool(
        server.url,
        'recommendation_delete_service',
        { serviceId: 'rcs-home-feed' },
        {
          inputResponses: { confirmation: { action: 'accept', content: { serviceId: 'rcs-home-feed' } } },
          requestState: state,
        },
      );
      const otherText = (other.response.result!.content as { text: string }[])[0]!.text;
      expect(otherText).toMatch(/\[not_confirmed\]: the confirmation answered was asked for another call/);

      const declined = await callTool(server.url, 'recommendation_delete_service', args, {
        inputResponses: { confirmation: { action: 'decline' } },
        requestState: state,
      });
      expect((declined.response.result!.content as { text: string }[])[0]!.text).toMatch(
        /the user declined\. Nothing was sent\./,
      );

      const done = await callTool(server.url, 'recommendation_delete_service', args, {
        inputResponses: accept,
        requestState: state,
      });
      expect(done.response.result!.isError).toBeFalsy();
      // A 2026-07-28 client that shows no forms confirms by argument.
      const noForms = await callTool(
        server.url,
        'recommendation_delete_service',
        args,
        {},
        {
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      );
      expect((noForms.response.result!.content as { text: string }[])[0]!.text).toMatch(
        /call again with confirm set to the serviceId/,
      );
    });
  });
}

describe('the per-request log level', () => {
  let upstream: Server;
  let server: HttpServerProcess;
  let answered = 0;
  beforeAll(async () => {
    // E10 answers 503 first, then its schema: the retry is what the server tells the client about.
    upstream = createServer((_req, res) => {
      answered += 1;
      if (answered % 2 === 1) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
        return void res.end('{"error":{"errorCode":"500","message":"busy"}}');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"datasetType":"user","name":"s","fields":[]}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    server = await spawnHttpServer(['--stateless'], { SVC_GATEWAY_URL: origin, ...CREDENTIALS });
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => upstream.close(resolve));
  });

  const notes = (r: Rpc) => r.messages.filter((m) => m.method === 'notifications/message');

  it('sends no log message to a request that sets no level', async () => {
    const quiet = await callTool(server.url, 'recommendation_get_default_schema', { datasetType: 'user' });
    expect(quiet.response.result!.isError).toBeFalsy();
    expect(notes(quiet)).toEqual([]);
  });

  it('sends the retry note to a request that asks for warnings, and nothing below its level', async () => {
    const told = await callTool(
      server.url,
      'recommendation_get_default_schema',
      { datasetType: 'user' },
      {},
      {
        'io.modelcontextprotocol/logLevel': 'warning',
      },
    );
    expect(told.response.result!.isError).toBeFalsy();
    expect(notes(told)).toEqual([
      expect.objectContaining({ params: expect.objectContaining({ level: 'warning', logger: 'svc-platform-mcp' }) }),
    ]);
    const errorsOnly = await callTool(
      server.url,
      'recommendation_get_default_schema',
      { datasetType: 'user' },
      {},
      {
        'io.modelcontextprotocol/logLevel': 'error',
      },
    );
    expect(notes(errorsOnly)).toEqual([]);
  });
});
