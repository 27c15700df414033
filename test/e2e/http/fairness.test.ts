/**
 * Fair and bounded under load: a client that goes away cancels its calls in every mode; unanswered confirmation
 * forms hold no place, so another session's call is answered at once; a burst of many concurrent calls is served
 * (they wait their turn) rather than refused. Against the built server and a recording upstream on loopback.
 */
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import {
  INITIALIZE,
  connectClient,
  connectEraClient,
  rawRequest,
  spawnHttpServer,
  waitFor,
  type HttpServerProcess,
} from '../../helpers/spawn-http.js';
import { LANGUAGES, fullEnv } from '../../helpers/upstream.js';

const TOKENIZER = { name: 'search_list_tokenizer_languages', arguments: {} };

let upstream: RecordingServer;
const servers: HttpServerProcess[] = [];
beforeAll(async () => {
  upstream = await startRecordingServer();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  upstream.reset();
});
afterAll(() => upstream?.close());

/** POSTs a tools/call and destroys the connection once the upstream has the request: the client went away. */
async function callThenDisconnect(url: string, headers: Record<string, string>, body: object): Promise<void> {
  const target = new URL(url);
  const text = JSON.stringify(body);
  const req = request({
    host: target.hostname,
    port: target.port,
    path: target.pathname,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
      'content-length': Buffer.byteLength(text),
    },
  });
  req.on('error', () => {});
  req.end(text);
  await waitFor(() => upstream.requests.length === 1, 10_000, 'the call to reach the upstream');
  req.destroy();
}

const MODERN = {
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': TOKENIZER.name,
};
const modernCall = {
  jsonrpc: '2.0',
  id: 9,
  method: 'tools/call',
  params: {
    ...TOKENIZER,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
};
const legacyCall = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: TOKENIZER };

describe('a client that goes away cancels its calls', () => {
  it.each([
    ['a 2025 session', [] as string[], 'session'],
    ['stateless 2025', ['--stateless'], 'legacy'],
    ['2026-07-28', [] as string[], 'modern'],
  ] as const)(
    '%s',
    async (_, flags, kind) => {
      upstream.setFallback({ hang: true });
      const server = await spawnHttpServer([...flags], fullEnv(upstream.url, { SVC_TIMEOUT_MS: '60000' }));
      servers.push(server);
      let headers: Record<string, string> = { 'mcp-protocol-version': '2025-11-25' };
      if (kind === 'session') {
        const init = await rawRequest(server.url, { body: INITIALIZE });
        headers = { ...headers, 'mcp-session-id': init.headers['mcp-session-id'] as string };
      }
      await callThenDisconnect(
        server.url,
        kind === 'modern' ? MODERN : headers,
        kind === 'modern' ? modernCall : legacyCall,
      );
      // The call ends long before its 60 s timeout, as cancelled, and nothing holds it.
      await waitFor(
        () => /"event":"tool_call"[^\n]*"outcome":"cancelled"/.test(server.stderr()),
        10_000,
        'the call to be cancelled',
      );
    },
    30_000,
  );
});

describe('waiting for a user holds no place', () => {
  it("80 unanswered forms in one session leave another session's call answered at once", async () => {
    upstream.setFallback({ status: 200, body: LANGUAGES });
    const server = await spawnHttpServer([], fullEnv(upstream.url));
    servers.push(server);
    let asked = 0;
    // A user who never answers: every form stays open.
    const patient = await connectClient(server.url, {}, () => {
      asked += 1;
      return new Promise<ElicitResult>(() => {}) as unknown as ElicitResult;
    });
    const forms = Array.from({ length: 80 }, (_, i) =>
      patient.client
        .callTool({ name: 'kms_migrate_key', arguments: { keyTag: `kt-${i}`, targetRegion: 'KR' } }, undefined, {
          timeout: 60_000,
        })
        .catch(() => {}),
    );
    await waitFor(() => asked === 80, 15_000, 'every form to be open');
    // Were it waiting for a place the forms hold, it would wait as long as they do: past the test's timeout.
    const other = await connectClient(server.url);
    const result = (await other.client.callTool(TOKENIZER)) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(upstream.requests).toHaveLength(1);
    await other.client.close();
    void forms;
  }, 40_000);
});

describe('a burst is served, not refused', () => {
  it('40 clients x 10 concurrent calls, upstream answering in 20-200 ms: every call succeeds', async () => {
    let n = 0;
    upstream.setFallback(() => ({ status: 200, body: LANGUAGES, delayMs: 20 + ((n++ * 37) % 181) }));
    const server = await spawnHttpServer([], fullEnv(upstream.url));
    servers.push(server);
    // Forty clients, each from an address of its own (one address may hold SVC_MCP_MAX_SESSIONS_PER_CLIENT sessions).
    const clients = await Promise.all(
      Array.from({ length: 40 }, (_, i) => connectClient(server.url, {}, undefined, `127.0.0.${i + 2}`)),
    );
    const results = await Promise.all(
      clients.flatMap(({ client }) =>
        Array.from(
          { length: 10 },
          () => client.callTool(TOKENIZER, undefined, { timeout: 60_000 }) as Promise<CallToolResult>,
        ),
      ),
    );
    expect(results.filter((r) => r.isError).map((r) => JSON.stringify(r.content))).toEqual([]);
    expect(upstream.requests).toHaveLength(400);
    await Promise.all(clients.map(({ client }) => client.close()));
  }, 90_000);
});

describe('addresses take turns, on loopback too', () => {
  it('a flood from one address over two sessions and both eras leaves the other addresses served at once', async () => {
    // The flood's first two calls hang at the upstream: they hold its two running places for as long as the test runs.
    let hung = 0;
    upstream.setFallback(() => (hung++ < 2 ? { hang: true } : { status: 200, body: LANGUAGES }));
    const server = await spawnHttpServer(
      [],
      fullEnv(upstream.url, {
        SVC_MAX_CONCURRENT_CALLS: '4',
        SVC_MAX_QUEUED_CALLS: '8',
        SVC_TIMEOUT_MS: '60000',
        // The hanging calls are stopped at once when the test ends.
        SVC_MCP_SHUTDOWN_GRACE_MS: '100',
      }),
    );
    servers.push(server);
    // 127.0.0.2 floods: a 2025 session and a 2026-07-28 client, 12 calls each. Its share is 2 running and 4 waiting.
    const flooders = [
      await connectEraClient('2025', server.url, {}, undefined, '127.0.0.2'),
      await connectEraClient('2026', server.url, {}, undefined, '127.0.0.2'),
    ];
    const refused: CallToolResult[] = [];
    for (const client of flooders) {
      for (let i = 0; i < 12; i += 1) {
        void (client.callTool(TOKENIZER) as Promise<CallToolResult>).then((r) => refused.push(r)).catch(() => {});
      }
    }
    // Its share and no more: 2 running, 4 waiting; the other 18 calls are refused at once.
    await waitFor(() => refused.length === 18 && upstream.requests.length === 2, 15_000, 'the flood to be settled');
    expect(refused.every((r) => r.isError && JSON.stringify(r.content).includes('[busy]'))).toBe(true);
    // Three other addresses, each in its own way: served, though the flood fills its share.
    const others = await Promise.all([
      connectEraClient('2025', server.url, {}, undefined, '127.0.0.3'),
      connectEraClient('2026', server.url, {}, undefined, '127.0.0.4'),
      connectEraClient('2025', server.url, {}, undefined, '127.0.0.5'),
    ]);
    const served = (await Promise.all(others.map((c) => c.callTool(TOKENIZER)))) as CallToolResult[];
    expect(served.map((r) => (r.isError ? JSON.stringify(r.content) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
    expect(refused).toHaveLength(18);
  }, 60_000);
});
