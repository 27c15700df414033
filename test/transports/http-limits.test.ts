import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { parseCommand, type Config } from '../../src/config/index.js';
import type { ServerFactory } from '../../src/server.js';
import { startHttpServer, type HttpServerHandle } from '../../src/transports/http.js';
import { unreadBytes } from '../../src/transports/http-endpoint-context.js';
import { INITIALIZE, rawRequest, rpcMessage, waitFor } from '../helpers/spawn-http.js';

// In process, loopback only: the limits of the HTTP transport, with a tiny MCP server of its own. Clients other
// than loopback ones are made by trusting 127.0.0.1 as a proxy and sending X-Forwarded-For.

const TOKEN = 'limits-test-token-0123456789abcdef';

function config(env: Record<string, string> = {}, flags: string[] = []): Config {
  const command = parseCommand(['--http', '--port', '0', ...flags], env);
  if (command.kind !== 'serve') throw new Error('expected a serve command');
  return command.config;
}

const tinyServer: ServerFactory = () => {
  const server = new McpServer({ name: 'limits-test', version: '0.0.0' });
  server.registerTool('echo', { description: 'Says ok', inputSchema: z.object({}) }, () => ({
    content: [{ type: 'text', text: 'ok' }],
  }));
  return server.server;
};

const handles: HttpServerHandle[] = [];
const logs: string[] = [];
async function start(
  env: Record<string, string>,
  options: { create?: ServerFactory; now?: () => number; graceMs?: number } = {},
): Promise<HttpServerHandle> {
  const handle = await startHttpServer(options.create ?? tinyServer, config(env), {
    log: (line) => logs.push(line),
    onSignal: () => {},
    now: options.now,
    graceMs: options.graceMs,
  });
  handles.push(handle);
  return handle;
}

afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.close()));
  logs.length = 0;
});

describe('failed token attempts', () => {
  it('after 5 wrong tokens an address is refused with 429 and Retry-After, for a time that grows; others are not', async () => {
    const clock = { now: 1_000_000 };
    const handle = await start(
      { SVC_MCP_AUTH_TOKEN: TOKEN, SVC_MCP_TRUSTED_PROXIES: '127.0.0.1' },
      { now: () => clock.now },
    );
    const attempt = (client: string | undefined, token: string) =>
      rawRequest(handle.url, {
        headers: { Authorization: `Bearer ${token}`, ...(client ? { 'X-Forwarded-For': client } : {}) },
        body: INITIALIZE,
      });
    const guesser = '203.0.113.5';
    for (let i = 0; i < 6; i += 1) expect((await attempt(guesser, `guess-${i}`)).status).toBe(401);
    // Blocked for 1 s: even the right token is not looked at.
    const refused = await attempt(guesser, TOKEN);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(rpcMessage(refused.body).error?.message).toMatch(/failed token attempts/);
    expect(logs.some((l) => l.includes('"refused":"auth_backoff"'))).toBe(true);
    // Another address, and loopback (a local proxy relays everyone from there), are not affected.
    expect((await attempt('198.51.100.7', TOKEN)).status).toBe(200);
    expect((await attempt(undefined, TOKEN)).status).toBe(200);
    // Once the time is over, the next wrong token doubles it.
    clock.now += 1000;
    expect((await attempt(guesser, 'guess-6')).status).toBe(401);
    expect((await attempt(guesser, TOKEN)).headers['retry-after']).toBe('2');
    clock.now += 2000;
    expect((await attempt(guesser, TOKEN)).status).toBe(200);
  });

  it('a missing token is not a guess: no back-off', async () => {
    const handle = await start({ SVC_MCP_AUTH_TOKEN: TOKEN, SVC_MCP_TRUSTED_PROXIES: '127.0.0.1' });
    for (let i = 0; i < 10; i += 1) {
      expect(
        (await rawRequest(handle.url, { headers: { 'X-Forwarded-For': '203.0.113.5' }, body: INITIALIZE })).status,
      ).toBe(401);
    }
  });
});

/** A raw connection to the server, with everything it received and whether the server closed it. */
async function open(
  port: number,
  from?: string,
): Promise<{ socket: Socket; received: () => string; closed: Promise<number>; gone: () => boolean }> {
  const socket = connect({ port, host: '127.0.0.1', ...(from ? { localAddress: from } : {}) });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  socket.on('error', () => {});
  let gone = false;
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => {
      gone = true;
      resolve(Date.now());
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => received, closed, gone: () => gone };
}

/** Starts a request whose body never ends, and settles once the server began serving it (its 100 Continue). */
async function served(connection: Awaited<ReturnType<typeof open>>, port: number): Promise<void> {
  const before = connection.received().length;
  connection.socket.write(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      'Accept: application/json, text/event-stream\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n',
  );
  await waitFor(() => connection.received().slice(before).includes('100 Continue'), 5_000, 'the 100 Continue');
}

/** Sends the head of a chunked POST, then one byte of body every 100 ms until the server closes the connection. */
function trickle(connection: Awaited<ReturnType<typeof open>>, port: number, host = `127.0.0.1:${port}`): void {
  connection.socket.write(
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      'Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n',
  );
  const timer = setInterval(() => connection.socket.write('1\r\n \r\n'), 100);
  void connection.closed.then(() => clearInterval(timer));
}

describe('slow requests and many connections', () => {
  it('a body still arriving after SVC_MCP_REQUEST_TIMEOUT_MS gets 408 with a JSON-RPC error, and its connection is closed', async () => {
    const handle = await start({ SVC_MCP_REQUEST_TIMEOUT_MS: '1000' });
    const connection = await open(handle.port);
    const started = Date.now();
    trickle(connection, handle.port);
    // Closed by this timeout, not earlier (a load can only make it later) and not by another: the 408 names it.
    const closedAt = await connection.closed;
    expect(closedAt - started).toBeGreaterThanOrEqual(900);
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(connection.received()).toContain('SVC_MCP_REQUEST_TIMEOUT_MS');
    expect(logs.some((l) => l.includes('"refused":"timeout"'))).toBe(true);
  });

  it('a request refused before its body is read (here: a foreign Host) cannot hold its connection either', async () => {
    const handle = await start({ SVC_MCP_REQUEST_TIMEOUT_MS: '1000' });
    const connection = await open(handle.port);
    trickle(connection, handle.port, 'evil.example.com');
    // Held, the connection would trickle on past the test's timeout.
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 403 /);
  });

  it('SVC_MCP_MAX_CONNECTIONS, a lone address: its idle connection makes room, a busy one never; all busy, the new one is closed', async () => {
    const handle = await start({ SVC_MCP_MAX_CONNECTIONS: '2', SVC_MCP_REQUEST_TIMEOUT_MS: '20000' });
    const health = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\n\r\n`;
    const busy = await open(handle.port);
    await served(busy, handle.port); // a request being served: its body still arriving
    const idle = await open(handle.port);
    const third = await open(handle.port);
    // Over the cap: the idle one (no request yet) is closed, not the busy one, nor the newcomer.
    await idle.closed;
    third.socket.write(health);
    await waitFor(() => third.received().includes('"status":"ok"'), 2_000, 'the health answer');
    await served(third, handle.port);
    // Both busy: a fourth connection is closed at once, unanswered.
    const fourth = await open(handle.port);
    await fourth.closed;
    expect(fourth.received()).toBe('');
    expect(busy.gone()).toBe(false);
    expect(third.gone()).toBe(false);
    expect(logs.some((l) => l.includes('"event":"connections_refused"') && l.includes('"maxConnections":2'))).toBe(
      true,
    );
    busy.socket.destroy();
    third.socket.destroy();
  });

  it('one address holding every connection with slow headers does not make other addresses fail', async () => {
    const handle = await start({ SVC_MCP_MAX_CONNECTIONS: '200' });
    // 127.0.0.2 holds all 200 places, each connection a request head that never ends.
    const slow = await Promise.all(Array.from({ length: 200 }, () => open(handle.port, '127.0.0.2')));
    for (const connection of slow) connection.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1');
    // Three other addresses, 20 connections each, kept open after their answer: every request is served.
    const others: Awaited<ReturnType<typeof open>>[] = [];
    for (const from of ['127.0.0.3', '127.0.0.4', '127.0.0.5']) {
      for (let i = 0; i < 20; i += 1) {
        const connection = await open(handle.port, from);
        others.push(connection);
        connection.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\n\r\n`);
        await waitFor(() => connection.received().includes('"status":"ok"'), 5_000, 'the health answer');
      }
    }
    // The slow sender gave way, one connection for each of theirs: it held the most.
    await waitFor(() => slow.filter((c) => c.gone()).length >= 60, 5_000, 'the closed ones to be seen');
    expect(slow.filter((c) => c.gone())).toHaveLength(60);
    expect(others.filter((c) => c.gone())).toHaveLength(0);
    for (const connection of [...slow, ...others]) connection.socket.destroy();
  });
});

describe('back-pressure', () => {
  const BIG = 16 * 1024 * 1024; // more than the kernel's socket buffers hold, so that the rest waits in the process
  const bigServer: ServerFactory = () => {
    const server = new McpServer({ name: 'limits-test', version: '0.0.0' });
    server.registerTool('big', { description: 'A large result', inputSchema: z.object({}) }, () => ({
      content: [{ type: 'text', text: 'x'.repeat(BIG) }],
    }));
    return server.server;
  };

  async function session(url: string): Promise<Record<string, string>> {
    const init = await rawRequest(url, { body: INITIALIZE });
    const headers = {
      'Mcp-Session-Id': init.headers['mcp-session-id'] as string,
      'Mcp-Protocol-Version': '2025-06-18',
    };
    expect(
      (
        await rawRequest(url, {
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        })
      ).status,
    ).toBe(202);
    return headers;
  }

  it('counts what the open responses of a session hold unread (unit)', () => {
    expect(unreadBytes([])).toBe(0);
    expect(unreadBytes([{ writableLength: 3 }, { writableLength: 0 }, { writableLength: 4 }])).toBe(7);
  });

  it('a session whose earlier responses are not read gets 503 with Retry-After for new requests until it reads them', async () => {
    const handle = await start({ SVC_MCP_MAX_UNREAD_BYTES: '65536' }, { create: bigServer });
    const headers = await session(handle.url);
    const ping = (h = headers) =>
      rawRequest(handle.url, { headers: h, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }) });
    expect((await ping()).status).toBe(200);

    // A client that asks for a large result and stops reading.
    const stuck = await open(handle.port);
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'big', arguments: {} },
    });
    stuck.socket.pause();
    stuck.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Mcp-Session-Id: ${headers['Mcp-Session-Id']}\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: ${Buffer.byteLength(call)}\r\n\r\n${call}`,
    );
    let refused: Awaited<ReturnType<typeof ping>> | undefined;
    await waitFor(
      () => {
        void ping().then(
          (res) => (refused ??= res.status === 503 ? res : undefined),
          () => {},
        );
        return refused !== undefined;
      },
      5_000,
      'new requests of the session to be refused',
    );
    expect(refused!.headers['retry-after']).toBe('1');
    expect(rpcMessage(refused!.body).error).toMatchObject({
      code: -32000,
      message: expect.stringContaining('SVC_MCP_MAX_UNREAD_BYTES'),
    });
    expect(logs.some((l) => l.includes('"refused":"backpressure"'))).toBe(true);
    // A notification still passes (a cancellation could free the stream), and other sessions are not affected.
    expect(
      (
        await rawRequest(handle.url, {
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
        })
      ).status,
    ).toBe(202);
    expect((await ping(await session(handle.url))).status).toBe(200);

    // Once the client reads, the session takes requests again.
    stuck.socket.resume();
    await waitFor(() => stuck.received().length > BIG, 10_000, 'the large result to be read');
    let served = false;
    await waitFor(
      () => {
        void ping().then(
          (res) => (served ||= res.status === 200),
          () => {},
        );
        return served;
      },
      5_000,
      'the session to take requests again',
    );
    stuck.socket.destroy();
  });
});
