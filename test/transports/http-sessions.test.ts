import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer, type Server } from '@modelcontextprotocol/server';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseCommand, type Config } from '../../src/config/index.js';
import { startHttpServer, type HttpServerHandle } from '../../src/transports/http.js';
import { SessionStore } from '../../src/transports/http-sessions.js';
import { sessionIdGenerator } from '../../src/transports/http-endpoint-context.js';
import { summariseRpc } from '../../src/transports/http-request-log.js';
import { INITIALIZE, connectClient, openStream, rawRequest, rpcMessage, waitFor } from '../helpers/spawn-http.js';
import { startRecordingServer } from '../helpers/recording-server.js';
import { fullEnv } from '../helpers/upstream.js';
import { createUpstream } from '../../src/upstream/http.js';
import { createServerFactory } from '../../src/server.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

// In process: the transport with a tiny MCP server of its own, so that these tests are about sessions only.

function config(env: Record<string, string> = {}, flags: string[] = []): Config {
  const command = parseCommand(['--http', '--port', '0', ...flags], env);
  if (command.kind !== 'serve') throw new Error('expected a serve command');
  return command.config;
}

let created = 0;
let closedServers = 0;
/** Calls of the `hold` tool under way: each answers when its function is called. */
const held: (() => void)[] = [];
/** The low-level Server the transports serve (McpServer's registerTool is handier to write tests with). */
function createServer(): Server {
  created += 1;
  const server = new McpServer({ name: 'http-test', version: '0.0.0' });
  server.registerTool('echo_length', { description: 'Length of a text', inputSchema: z.object({}) }, () => ({
    content: [{ type: 'text', text: 'ok' }],
  }));
  server.registerTool(
    'hold',
    { description: 'Answers when the test releases it', inputSchema: z.object({}) },
    async () => {
      await new Promise<void>((resolve) => held.push(resolve));
      return { content: [{ type: 'text', text: 'released' }] };
    },
  );
  const low = server.server;
  const close = low.close.bind(low);
  low.close = async () => {
    closedServers += 1;
    await close();
  };
  return low;
}

const handles: HttpServerHandle[] = [];
const logs: string[] = [];
async function start(
  env: Record<string, string> = {},
  flags: string[] = [],
  graceMs?: number,
): Promise<HttpServerHandle> {
  const handle = await startHttpServer(createServer, config(env, flags), {
    log: (line) => logs.push(line),
    onSignal: () => {},
    graceMs,
  });
  handles.push(handle);
  return handle;
}

/** Open GET streams, ended after each test. */
const streams: { close(): void }[] = [];

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  for (const release of held.splice(0)) release();
  await Promise.all(handles.splice(0).map((h) => h.close()));
  logs.length = 0;
});

describe('session ids (unit)', () => {
  const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';

  it('are random UUIDs, prefixed with "<SVC_MCP_REPLICA_ID>." when set, in visible ASCII', () => {
    const plain = sessionIdGenerator(undefined);
    const r1 = sessionIdGenerator('r1');
    const long = sessionIdGenerator('eu-WEST-2');
    expect(plain()).toMatch(new RegExp(`^${UUID}$`));
    expect(r1()).toMatch(new RegExp(`^r1\\.${UUID}$`));
    expect(long()).toMatch(new RegExp(`^eu-WEST-2\\.${UUID}$`));
    const ids = Array.from({ length: 1000 }, r1);
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[\x21-\x7e]+$/);
  });

  it('the server hands out prefixed ids and serves requests on them', async () => {
    const handle = await start({ SVC_MCP_REPLICA_ID: 'r7' });
    const { client, transport } = await connectClient(handle.url);
    expect(transport.sessionId).toMatch(new RegExp(`^r7\\.${UUID}$`));
    expect((await client.callTool({ name: 'echo_length', arguments: {} })).isError).toBeFalsy();
    await transport.terminateSession();
    await client.close();
  });
});

describe('session store (unit)', () => {
  it('caps sessions (counting those being initialised), expires idle ones, never one with a request in flight', async () => {
    let now = 0;
    const closed: string[] = [];
    const store = new SessionStore<{ close(): Promise<void> }>({ maxSessions: 2, idleMs: 1000, now: () => now });
    const session = (id: string) => ({ close: async () => void closed.push(id) });
    expect(store.reserve()).toBe('ok');
    store.add('a', session('a'));
    store.unreserve();
    const endA = store.begin('a');
    expect(store.reserve()).toBe('ok');
    expect(store.reserve()).toBe('server_full'); // one busy, one being initialised
    store.unreserve();
    store.add('b', session('b'));
    const end = store.begin('b');
    endA();
    now = 5000;
    expect(store.reserve()).toBe('ok'); // 'a' expired to make room; 'b' is busy
    expect(closed).toEqual(['a']);
    expect(store.get('b')).toBeDefined();
    end();
    now = 5500;
    store.sweep();
    expect(store.get('b')).toBeDefined(); // idle for 500 ms only
    now = 6100;
    store.sweep();
    expect(store.get('b')).toBeUndefined();
    await store.closeAll();
  });

  it("at a client's cap, that client's least recently used idle session is closed to make room; a live one never", async () => {
    let now = 0;
    const closed: string[] = [];
    const evicted: [string, number][] = [];
    const store = new SessionStore<{ close(): Promise<void> }>({
      maxSessions: 10,
      maxSessionsPerClient: 3,
      idleMs: 600_000,
      now: () => now,
      onEvict: (cap, idleMs) => evicted.push([cap, idleMs]),
    });
    const open = (id: string, client: string) => {
      expect(store.reserve(client)).toBe('ok');
      store.unreserve(client);
      store.add(id, { close: async () => void closed.push(id) }, client);
      now += 1000;
    };
    open('x1', 'X');
    open('x2', 'X');
    open('x3', 'X');
    open('y1', 'Y');
    const busy = store.begin('x1'); // a request in flight
    store.openStream('x2'); // listening on its stream
    open('x4', 'X'); // x3 is the only idle one of X: closed, though x1 and x2 are older
    expect(closed).toEqual(['x3']);
    expect(evicted).toEqual([['client_full', 2000]]);
    expect(store.get('x3')).toBeUndefined();
    store.begin('x4');
    // Every session of X is live now: refused; Y is not affected, and none of Y's is taken.
    expect(store.reserve('X')).toBe('client_full');
    expect(store.get('y1')).toBeDefined();
    busy();
    now += 1000;
    open('x5', 'X'); // x1's request ended: it is idle again, and the least recently used
    expect(closed).toEqual(['x3', 'x1']);
    expect(store.countOf('X')).toBe(3);
    await store.closeAll();
  });

  it("at the server's cap, an idle session of the client holding the most is closed; a newcomer wins ties", async () => {
    let now = 0;
    const closed: string[] = [];
    const evicted: string[] = [];
    const store = new SessionStore<{ close(): Promise<void> }>({
      maxSessions: 4,
      maxSessionsPerClient: 10,
      idleMs: 600_000,
      now: () => now,
      onEvict: (cap) => evicted.push(cap),
    });
    const open = (id: string, client: string) => {
      expect(store.reserve(client)).toBe('ok');
      store.unreserve(client);
      store.add(id, { close: async () => void closed.push(id) }, client);
      now += 1000;
    };
    open('y1', 'Y'); // the least recently used of all
    open('x1', 'X');
    open('x2', 'X');
    open('x3', 'X');
    open('z1', 'Z'); // X holds the most: its least recently used idle session goes, not Y's older one
    expect(closed).toEqual(['x1']);
    expect(evicted).toEqual(['server_full']);
    open('z2', 'Z'); // X holds 2, Z would hold 2: Z gives way itself
    expect(closed).toEqual(['x1', 'z1']);
    // Only live sessions left in the way: X listens on two streams, more than W would hold: X gives one up.
    for (const id of ['y1', 'x2', 'x3']) store.openStream(id);
    store.begin('z2');
    open('w1', 'W');
    expect(closed).toEqual(['x1', 'z1', 'x2']);
    // Now every client holds one, W too; a request in flight or a stream of a client holding no more: refused.
    store.begin('w1');
    expect(store.reserve('V')).toBe('server_full');
    expect(closed).toHaveLength(3);
    await store.closeAll();
  });

  it('under the server cap, clients that keep streams open cannot hold every place: the one holding most gives way', async () => {
    let now = 0;
    const closed: string[] = [];
    const store = new SessionStore<{ close(): Promise<void> }>({
      maxSessions: 100,
      maxSessionsPerClient: 10,
      idleMs: 600_000,
      now: () => now,
    });
    const open = (id: string, client: string) => {
      const reserved = store.reserve(client);
      if (reserved !== 'ok') return reserved;
      store.unreserve(client);
      store.add(id, { close: async () => void closed.push(id) }, client);
      store.openStream(id);
      now += 1000;
      return 'ok';
    };
    // Ten clients, ten listening sessions each: every place is taken.
    for (let c = 0; c < 10; c += 1) for (let s = 0; s < 10; s += 1) expect(open(`c${c}-${s}`, `C${c}`)).toBe('ok');
    // An eleventh client is served: the client holding the most gives up its least recently used listening session.
    expect(open('n-0', 'N')).toBe('ok');
    expect(closed).toEqual(['c0-0']);
    // It may go on up to a fair share, never past the others.
    for (let s = 1; s < 9; s += 1) expect(open(`n-${s}`, 'N')).toBe('ok');
    expect(store.countOf('N')).toBe(9);
    expect(closed).toHaveLength(9);
    // A session with a request in flight is never closed: with every other one busy, the newcomer is refused.
    for (let c = 0; c < 10; c += 1) for (let s = 0; s < 10; s += 1) store.begin(`c${c}-${s}`);
    expect(open('n-9', 'N')).toBe('server_full');
    await store.closeAll();
  });

  it('caps the sessions of one client, live and being initialised; clients without a key are not counted', async () => {
    let now = 0;
    const store = new SessionStore<{ close(): Promise<void> }>({
      maxSessions: 10,
      maxSessionsPerClient: 2,
      idleMs: 10_000,
      now: () => now,
    });
    const session = { close: async () => {} };
    expect(store.reserve('203.0.113.5')).toBe('ok');
    store.unreserve('203.0.113.5');
    store.add('a1', session, '203.0.113.5');
    const endA1 = store.begin('a1');
    expect(store.reserve('203.0.113.5')).toBe('ok'); // being initialised: counts
    expect(store.reserve('203.0.113.5')).toBe('client_full');
    expect(store.reserve('198.51.100.7')).toBe('ok'); // another client is not affected
    for (let i = 0; i < 5; i += 1) expect(store.reserve()).toBe('ok'); // no key (loopback): only the server-wide cap
    store.unreserve('203.0.113.5');
    store.add('a2', session, '203.0.113.5');
    expect(store.countOf('203.0.113.5')).toBe(2);
    // Retry-After: when its first idle session can expire (a2 is busy).
    now = 4000;
    endA1();
    const end = store.begin('a2');
    expect(store.retryAfterMs('203.0.113.5')).toBe(10_000);
    store.remove('a1');
    expect(store.reserve('203.0.113.5')).toBe('ok'); // a DELETE gave the place back
    store.unreserve('203.0.113.5');
    end();
    now = 20_000;
    store.sweep(); // idle: expired, and its place with it
    expect(store.countOf('203.0.113.5')).toBe(0);
    expect(store.reserve('203.0.113.5')).toBe('ok');
    await store.closeAll();
  });

  it('summarises JSON-RPC bodies for the log without argument values', () => {
    expect(
      summariseRpc({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'kms_migrate_key', arguments: { keyTag: 'secret' } },
      }),
    ).toEqual({
      rpc: 'tools/call',
      tool: 'kms_migrate_key',
      initialize: false,
      hasRequest: true,
    });
    expect(
      summariseRpc([
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ]),
    ).toMatchObject({
      rpc: 'notifications/initialized,ping',
      hasRequest: true,
    });
    expect(
      summariseRpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x"}\n{"forged":1' } }).tool,
    ).toBe('(invalid)');
    expect(summariseRpc('hello')).toEqual({ initialize: false, hasRequest: false });
  });
});

describe('session mode', () => {
  it('refuses a session beyond SVC_MCP_MAX_SESSIONS with a clear JSON-RPC error, and accepts again once one ends', async () => {
    const handle = await start({ SVC_MCP_MAX_SESSIONS: '2' });
    const first = await connectClient(handle.url);
    const second = await connectClient(handle.url);
    const refused = await rawRequest(handle.url, { body: INITIALIZE });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBeDefined();
    const error = rpcMessage(refused.body).error!;
    expect(error.code).toBe(-32000);
    expect(error.message).toContain('Too many sessions');
    expect(error.message).toContain('SVC_MCP_MAX_SESSIONS');
    await expect(connectClient(handle.url)).rejects.toBeInstanceOf(StreamableHTTPError);

    await first.transport.terminateSession();
    await first.client.close();
    const third = await connectClient(handle.url);
    expect((await third.client.listTools()).tools).toHaveLength(2);
    for (const c of [second, third]) {
      await c.transport.terminateSession();
      await c.client.close();
    }
  });

  it('SVC_MCP_MAX_SESSIONS_PER_CLIENT: one address cannot take every live session; behind a trusted proxy each client counts alone', async () => {
    const handle = await start({
      SVC_MCP_MAX_SESSIONS: '20',
      SVC_MCP_MAX_SESSIONS_PER_CLIENT: '2',
      SVC_MCP_TRUSTED_PROXIES: '127.0.0.1',
    });
    // The proxy (127.0.0.1 here) appends the address it got the request from; what is left of it, the client wrote.
    const from = (client: string, forged = '') => ({ 'X-Forwarded-For': `${forged}${client}` });
    const init = (headers: Record<string, string>) => rawRequest(handle.url, { headers, body: INITIALIZE });
    // A session with its stream open: live, never closed to make room.
    const live = async (headers: Record<string, string>) => {
      const res = await init(headers);
      if (res.status !== 200) return res;
      const stream = await openStream(handle.url, res.headers['mcp-session-id'] as string, { headers });
      expect(stream.status).toBe(200);
      streams.push(stream);
      return res;
    };
    const first = await live(from('203.0.113.5'));
    expect(first.status).toBe(200);
    expect((await live(from('203.0.113.5', '198.18.0.1, '))).status).toBe(200);
    const refused = await init(from('203.0.113.5', '198.18.0.2, '));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(rpcMessage(refused.body).error).toMatchObject({
      code: -32000,
      message: expect.stringContaining('SVC_MCP_MAX_SESSIONS_PER_CLIENT'),
    });
    expect(logs.some((l) => l.includes('"refused":"client_session_limit"'))).toBe(true);
    // Others are not locked out: another address, and the proxy's own requests (no X-Forwarded-For: its address).
    expect((await live(from('198.51.100.7'))).status).toBe(200);
    for (let i = 0; i < 2; i += 1) expect((await live({})).status).toBe(200);
    expect((await init({})).status).toBe(429);
    // An IPv6 client is its /64.
    expect((await live(from('2001:db8:1:2::a'))).status).toBe(200);
    expect((await live(from('2001:db8:1:2::b'))).status).toBe(200);
    expect((await init(from('2001:db8:1:2:ffff::1'))).status).toBe(429);
    expect((await live(from('2001:db8:1:3::1'))).status).toBe(200);
    // Ending a session gives the place back.
    const id = first.headers['mcp-session-id'] as string;
    const ended = await rawRequest(handle.url, {
      method: 'DELETE',
      headers: { ...from('203.0.113.5'), 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-06-18' },
    });
    expect(ended.status).toBe(200);
    expect((await init(from('203.0.113.5'))).status).toBe(200);
    expect(logs.some((l) => l.includes('"session_evicted"'))).toBe(false);
  });

  it('a leaked session hurts only its client: at its cap, its least recently used idle session is closed (404), a live one keeps working', async () => {
    const handle = await start({ SVC_MCP_MAX_SESSIONS_PER_CLIENT: '3' });
    const closedBefore = closedServers;
    const init = () => rawRequest(handle.url, { body: INITIALIZE, from: '127.0.0.2' });
    const list = (id: string) =>
      rawRequest(handle.url, {
        headers: { 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
        from: '127.0.0.2',
      });
    const keeper = (await init()).headers['mcp-session-id'] as string;
    streams.push(await openStream(handle.url, keeper, { from: '127.0.0.2' }));
    // Twenty-five one-shot scripts: initialize, one request, gone without DELETE.
    const leaked: string[] = [];
    for (let i = 0; i < 25; i += 1) {
      const res = await init();
      expect(res.status).toBe(200);
      const id = res.headers['mcp-session-id'] as string;
      expect((await list(id)).status).toBe(200);
      leaked.push(id);
      expect((await list(keeper)).status).toBe(200);
    }
    // The oldest leaked ones were closed, servers and all; the two newest remain beside the live one.
    expect(
      logs.filter((l) => l.includes('"event":"session_evicted"') && l.includes('"cap":"per_client"')),
    ).toHaveLength(23);
    await waitFor(() => closedServers - closedBefore === 23, 2_000, 'the closed sessions to release their servers');
    const gone = await list(leaked[0]!);
    expect(gone.status).toBe(404);
    expect((await list(leaked[24]!)).status).toBe(200);
    for (const line of logs.filter((l) => l.includes('session_evicted'))) {
      for (const id of leaked) expect(line).not.toContain(id);
    }
  });

  it('after 300 leaked sessions (the server cap is 100) a new client is served; the closed sessions release their servers', async () => {
    const handle = await start();
    const liveBefore = created - closedServers;
    const keeper = await connectClient(handle.url, {}, undefined, '127.0.0.2'); // its GET stream is open
    for (let i = 0; i < 300; i += 1) {
      const res = await rawRequest(handle.url, { body: INITIALIZE, from: `127.0.1.${1 + Math.floor(i / 10)}` });
      expect(res.status).toBe(200);
    }
    const newcomer = await connectClient(handle.url, {}, undefined, '127.0.0.3');
    expect((await newcomer.client.listTools()).tools).toHaveLength(2);
    expect((await keeper.client.listTools()).tools).toHaveLength(2);
    expect(logs.filter((l) => l.includes('"event":"session_evicted"') && l.includes('"cap":"server"'))).toHaveLength(
      202,
    );
    // Bounded: no more servers alive than the cap allows.
    await waitFor(
      () => created - closedServers - liveBefore <= 100,
      5_000,
      'the closed sessions to release their servers',
    );
    await keeper.client.close();
    await newcomer.client.close();
  }, 60_000);

  it('without SVC_MCP_TRUSTED_PROXIES, X-Forwarded-For is ignored, said once; each loopback address is a client', async () => {
    const handle = await start({ SVC_MCP_MAX_SESSIONS_PER_CLIENT: '1' });
    const init = (from: string) =>
      rawRequest(handle.url, { headers: { 'X-Forwarded-For': '203.0.113.5' }, body: INITIALIZE, from });
    const opened = await init('127.0.0.1');
    expect(opened.status).toBe(200);
    streams.push(await openStream(handle.url, opened.headers['mcp-session-id'] as string, { from: '127.0.0.1' }));
    // The header named another client: ignored, the peer is the client, and it has its one (live) session.
    expect((await init('127.0.0.1')).status).toBe(429);
    // Another loopback address is another client (a process of its own, or a proxy of its own).
    expect((await init('127.0.0.2')).status).toBe(200);
    const warnings = logs.filter((l) => l.includes('"event":"proxy_not_trusted"'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/SVC_MCP_TRUSTED_PROXIES.*counts as one client/);
    expect(warnings[0]).not.toContain('203.0.113.5');
  });

  it('expires idle sessions (SVC_MCP_SESSION_IDLE_MS): the id then gets 404 and the server is closed', async () => {
    const handle = await start({ SVC_MCP_SESSION_IDLE_MS: '1000' });
    const init = await rawRequest(handle.url, { body: INITIALIZE });
    const id = init.headers['mcp-session-id'] as string;
    expect(id).toBeTruthy();
    const list = () =>
      rawRequest(handle.url, {
        headers: { 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
    expect((await list()).status).toBe(200);
    const closedBefore = closedServers;
    await waitFor(() => logs.some((l) => l.includes('"session_expired"')), 5_000, 'idle expiry');
    expect(closedServers).toBeGreaterThan(closedBefore);
    expect((await list()).status).toBe(404);
  });

  it('DELETE ends the session and closes its server', async () => {
    const handle = await start();
    const { client, transport } = await connectClient(handle.url);
    const closedBefore = closedServers;
    await transport.terminateSession();
    await client.close();
    expect(closedServers).toBeGreaterThan(closedBefore);
  });

  it('a refused initialize (bad Accept) leaves no server behind', async () => {
    const handle = await start();
    const createdBefore = created;
    const closedBefore = closedServers;
    const res = await rawRequest(handle.url, { headers: { Accept: 'application/json' }, body: INITIALIZE });
    expect(res.status).toBe(406);
    await waitFor(() => closedServers - closedBefore === created - createdBefore, 2_000, 'the server to be closed');
  });
  it('a failing createServer answers 500 and gives its place back', async () => {
    let fail = true;
    const handle = await startHttpServer(
      () => {
        if (fail) throw new Error('boom');
        return createServer();
      },
      config({ SVC_MCP_MAX_SESSIONS: '1' }),
      { log: (line) => logs.push(line), onSignal: () => {} },
    );
    handles.push(handle);
    for (let i = 0; i < 2; i += 1) {
      const res = await rawRequest(handle.url, { body: INITIALIZE });
      expect(res.status).toBe(500);
      expect(rpcMessage(res.body).error?.code).toBe(-32603);
    }
    fail = false;
    expect((await rawRequest(handle.url, { body: INITIALIZE })).status).toBe(200);
  });
});

describe('streams, refusals and revisions (issue 33, item 13)', () => {
  const headersOf = (id: string) => ({ 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-06-18' });

  it('a session may open several GET streams; requests go on; ending the session ends them all', async () => {
    const handle = await start();
    const id = (await rawRequest(handle.url, { body: INITIALIZE })).headers['mcp-session-id'] as string;
    const opened = [];
    for (let i = 0; i < 3; i += 1) {
      const stream = await openStream(handle.url, id);
      expect([stream.status, stream.body()]).toEqual([200, '']);
      opened.push(stream);
      streams.push(stream);
    }
    const list = await rawRequest(handle.url, {
      headers: headersOf(id),
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(list.status).toBe(200);
    // The first (the SDK's) ends: the next GET is opened in its place, not refused as a second SDK stream.
    opened.shift()!.close();
    await waitFor(() => logs.some((l) => l.includes('"method":"GET"')), 2_000, 'the first stream to be closed');
    const replacement = await openStream(handle.url, id);
    expect(replacement.status).toBe(200);
    opened.push(replacement);
    streams.push(replacement);
    // A further stream is refused for what the SDK refuses too: no text/event-stream in Accept.
    const unacceptable = await openStream(handle.url, id, { headers: { Accept: 'application/json' } });
    expect(unacceptable.status).toBe(406);
    const ended = await rawRequest(handle.url, { method: 'DELETE', headers: headersOf(id) });
    expect(ended.status).toBe(200);
    await Promise.all(opened.map((stream) => stream.ended));
  });

  it('2024-11-05 is served on purpose: negotiated when asked for, and served as 2025-03-26 is, batches included', async () => {
    const handle = await start();
    const init = await rawRequest(handle.url, {
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '0' } },
      }),
    });
    expect(init.status).toBe(200);
    expect(rpcMessage(init.body).result).toMatchObject({ protocolVersion: '2024-11-05' });
    const id = init.headers['mcp-session-id'] as string;
    const headers = { 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2024-11-05' };
    await rawRequest(handle.url, {
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    const batch = await rawRequest(handle.url, {
      headers,
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', id: 3, method: 'ping' },
      ]),
    });
    expect(batch.status).toBe(200);
    // On an SSE stream, one event per answer.
    const answers = [...batch.body.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as { id: number });
    expect(answers.map((a) => a.id).sort()).toEqual([2, 3]);
  });

  it("refusals carry the request's id when it could be read", async () => {
    const handle = await start({ SVC_MCP_MAX_SESSIONS_PER_CLIENT: '1' });
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      rawRequest(handle.url, { headers, body: JSON.stringify(body) });
    const unknown = await post({ jsonrpc: '2.0', id: 7, method: 'tools/list' }, headersOf('no-such-session'));
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ id: 7, error: { code: -32001 } });
    const noSession = await post({ jsonrpc: '2.0', id: 'list-1', method: 'tools/list' });
    expect(noSession.status).toBe(400);
    expect(JSON.parse(noSession.body)).toMatchObject({ id: 'list-1' });
    const invalid = await post({ jsonrpc: '1.0', id: 3, method: 'tools/list' });
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.body).id).toBe(3);
    // At its cap, with its one session live: the 429 names the initialize's id.
    const first = await rawRequest(handle.url, { body: INITIALIZE });
    streams.push(await openStream(handle.url, first.headers['mcp-session-id'] as string));
    const refused = await post({ ...JSON.parse(INITIALIZE), id: 'init-2' });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ id: 'init-2' });
    // Nothing to name: a notification, a batch, an id of no allowed type.
    for (const body of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
      { jsonrpc: '2.0', id: { x: 1 }, method: 'ping' },
    ]) {
      const res = await post(body, headersOf('no-such-session'));
      expect([400, 404]).toContain(res.status);
      expect(JSON.parse(res.body).id).toBeNull();
    }
  });
});

describe('stateless mode', () => {
  it('builds one server per request and closes it when the response is done', async () => {
    const handle = await start({}, ['--stateless']);
    const createdBefore = created;
    const closedBefore = closedServers;
    const { client, transport } = await connectClient(handle.url);
    expect(transport.sessionId).toBeUndefined();
    await client.listTools();
    await client.callTool({ name: 'echo_length', arguments: {} });
    await client.close();
    expect(created - createdBefore).toBeGreaterThanOrEqual(3);
    await waitFor(
      () => closedServers - closedBefore === created - createdBefore,
      2_000,
      'every per-request server to be closed',
    );
  });
});

describe('shutdown (in process)', () => {
  it('close() stops accepting, closes sessions and settles `closed`', async () => {
    const handle = await start();
    const { client } = await connectClient(handle.url);
    await handle.close();
    await handle.closed;
    await expect(rawRequest(handle.url, { body: INITIALIZE })).rejects.toThrow();
    await client.close().catch(() => {});
  });

  it('lets an in-flight call finish before closing', async () => {
    const handle = await start();
    const { client } = await connectClient(handle.url);
    const call = client.callTool({ name: 'hold', arguments: {} });
    await waitFor(() => held.length === 1, 5_000, 'the call to reach its tool');
    let closed = false;
    const closing = handle.close().then(() => (closed = true));
    // A turn of the event loop for close() to act on the call, were it to cut it short instead of waiting.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    held.shift()!();
    expect(await call).toMatchObject({ content: [{ type: 'text', text: 'released' }] });
    await closing;
    await client.close().catch(() => {});
  });

  it('bounds the wait by the grace period, then closes anyway', async () => {
    const handle = await start({}, [], 300);
    const { client } = await connectClient(handle.url);
    const call = client.callTool({ name: 'hold', arguments: {} }).catch((error: unknown) => error);
    await waitFor(() => held.length === 1, 5_000, 'the call to reach its tool');
    // The call is never released: close() ends because the grace period did, as its log says.
    await handle.close();
    expect(logs.some((l) => l.includes('"shutdown_grace_expired"') && l.includes('"cutOff":1'))).toBe(true);
    await client.close().catch(() => {});
    await call;
  });

  for (const mode of ['sessions', 'stateless'] as const) {
    it(`${mode}: at the end of the grace period the calls still running are stopped, and each answers on its stream`, async () => {
      const upstream = await startRecordingServer();
      upstream.setFallback({ hang: true });
      const cfg = config(
        fullEnv(upstream.url, { SVC_TIMEOUT_MS: '20000' }),
        mode === 'stateless' ? ['--stateless'] : [],
      );
      const up = createUpstream(cfg);
      const create = createServerFactory(cfg, {
        upstream: up,
        now: Date.now,
        randomId: () => 'test-id',
        random: Math.random,
        log: () => {},
      });
      try {
        const handle = await startHttpServer(create, cfg, {
          log: (line) => logs.push(line),
          onSignal: () => {},
          graceMs: 300,
        });
        handles.push(handle);
        const { client } = await connectClient(handle.url);
        const calls = [1, 2].map(
          () =>
            client.callTool({ name: 'search_list_tokenizer_languages', arguments: {} }, undefined, {
              timeout: 5_000,
            }) as Promise<CallToolResult>,
        );
        await waitFor(() => upstream.requests.length === 2, 5_000, 'the calls to reach the upstream');
        // The upstream never answers and the calls' own timeout is 20 s: they end by the grace period (300 ms).
        await handle.close();
        expect(logs.some((l) => l.includes('"shutdown_grace_expired"') && l.includes('"graceMs":300'))).toBe(true);
        // An answer, not a stream that ends without one (the client would wait for its own timeout).
        for (const result of await Promise.all(calls)) {
          expect(result.isError).toBe(true);
          expect((result.content[0] as { text: string }).text).toMatch(
            /^search_list_tokenizer_languages failed \[shutting_down\]: the server shut down before the call ended/,
          );
        }
        expect(
          logs.some(
            (l) => l.includes('"shutdown_grace_expired"') && l.includes('"cutOff":2') && l.includes('"stopped":2'),
          ),
        ).toBe(true);
        await client.close().catch(() => {});
      } finally {
        await up.destroy();
        await upstream.close();
      }
    });
  }
});
