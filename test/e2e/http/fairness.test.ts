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

describe('one client alone may use every place', () => {
  it("one client's 40 sessions x 10 calls at the default call limits are all served; a second client arriving meanwhile too", async () => {
    let n = 0;
    upstream.setFallback(() => ({ status: 200, body: LANGUAGES, delayMs: 20 + ((n++ * 37) % 181) }));
    // Its session limit raised to let it open them; the call limits at their defaults.
    const server = await spawnHttpServer([], fullEnv(upstream.url, { SVC_MCP_MAX_SESSIONS_PER_CLIENT: '40' }));
    servers.push(server);
    const sessions = await Promise.all(
      Array.from({ length: 40 }, () => connectClient(server.url, {}, undefined, '127.0.0.2')),
    );
    const burst = sessions.flatMap(({ client }) =>
      Array.from(
        { length: 10 },
        () => client.callTool(TOKENIZER, undefined, { timeout: 60_000 }) as Promise<CallToolResult>,
      ),
    );
    // The second client arrives once the burst is under way: its calls wait beside it, none refused.
    await waitFor(() => upstream.requests.length > 0, 15_000, 'the burst to start');
    const second = await connectClient(server.url, {}, undefined, '127.0.0.3');
    const theirs = Array.from(
      { length: 10 },
      () => second.client.callTool(TOKENIZER, undefined, { timeout: 60_000 }) as Promise<CallToolResult>,
    );
    const results = await Promise.all([...burst, ...theirs]);
    expect(results.filter((r) => r.isError).map((r) => JSON.stringify(r.content))).toEqual([]);
    expect(upstream.requests).toHaveLength(410);
    await Promise.all([...sessions, second].map(({ client }) => client.close()));
  }, 90_000);
});

describe('leaked sessions hurt only their client', () => {
  it('25 one-shot clients in a row from one address, none ending its session, are all served beside a live session', async () => {
    upstream.setFallback({ status: 200, body: LANGUAGES });
    const server = await spawnHttpServer([], fullEnv(upstream.url));
    servers.push(server);
    const keeper = await connectClient(server.url, {}, undefined, '127.0.0.2');
    for (let i = 0; i < 25; i += 1) {
      // What a one-shot script does: initialize, one call, close() without DELETE (the SDK v1 client's close()).
      const { client } = await connectClient(server.url, {}, undefined, '127.0.0.2');
      const result = (await client.callTool(TOKENIZER)) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      await client.close();
      const kept = (await keeper.client.callTool(TOKENIZER)) as CallToolResult;
      expect(kept.isError, JSON.stringify(kept.content)).toBeFalsy();
    }
    // The address holds 10 (SVC_MCP_MAX_SESSIONS_PER_CLIENT): the keeper and 9 leaked; each further one closed the
    // least recently used leaked one.
    await waitFor(
      () => (server.stderr().match(/"event":"session_evicted"/g) ?? []).length === 16,
      5_000,
      '16 evictions in the log',
    );
    expect(server.stderr()).not.toContain('"refused":"client_session_limit"');
    await keeper.client.close();
  }, 60_000);
});

describe('addresses share the places under contention, on loopback too', () => {
  it("a flood from one address over two sessions and both eras fills every place; each newcomer takes one of the flood's", async () => {
    // The flood's first four calls hang at the upstream: they hold every running place until the flood goes away.
    let hung = 0;
    upstream.setFallback(() => (hung++ < 4 ? { hang: true } : { status: 200, body: LANGUAGES }));
    const server = await spawnHttpServer(
      [],
      fullEnv(upstream.url, {
        SVC_MAX_CONCURRENT_CALLS: '4',
        SVC_MAX_QUEUED_CALLS: '8',
        SVC_TIMEOUT_MS: '60000',
        SVC_MCP_SHUTDOWN_GRACE_MS: '100',
      }),
    );
    servers.push(server);
    // 127.0.0.2 floods: a 2025 session and a 2026-07-28 client, 12 calls each. Alone, it may take all 12 places.
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
    // Every place and no more: 4 running, 8 waiting; the other 12 calls are refused at once.
    await waitFor(() => refused.length === 12 && upstream.requests.length === 4, 15_000, 'the flood to be settled');
    // Three other addresses, each in its own way: not refused, though the flood holds every place. Each takes the
    // place of the flood's newest waiting call.
    const others = await Promise.all([
      connectEraClient('2025', server.url, {}, undefined, '127.0.0.3'),
      connectEraClient('2026', server.url, {}, undefined, '127.0.0.4'),
      connectEraClient('2025', server.url, {}, undefined, '127.0.0.5'),
    ]);
    const served = Promise.all(others.map((c) => c.callTool(TOKENIZER) as Promise<CallToolResult>));
    await waitFor(() => refused.length === 15, 15_000, "three of the flood's waiting calls to give way");
    expect(refused.every((r) => r.isError && JSON.stringify(r.content).includes('[busy]'))).toBe(true);
    expect(refused.filter((r) => JSON.stringify(r.content).includes('another client needed a place'))).toHaveLength(3);
    // The flood goes away (its calls are cancelled): the places it held go to the newcomers.
    await Promise.all(flooders.map((c) => c.close()));
    const results = await served;
    expect(results.map((r) => (r.isError ? JSON.stringify(r.content) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
    await Promise.all(others.map((c) => c.close()));
  }, 60_000);
});
