import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  bearerChecker,
  corsHeaders,
  hostAllowed,
  hostPolicy,
  originAllowed,
} from '../../src/transports/http-security.js';
import {
  INITIALIZE,
  connectClient,
  rawRequest,
  rpcMessage,
  runCli,
  spawnHttpServer,
  type HttpServerProcess,
} from '../helpers/spawn-http.js';

describe('Host and Origin policy (unit)', () => {
  const policy = hostPolicy(
    { host: '127.0.0.1', port: 4000 },
    ['mcp.example.com', 'proxy.internal:8443'],
    ['https://app.example.com/'],
  );

  it('accepts the loopback names with the bound port, and configured hosts', () => {
    for (const host of [
      '127.0.0.1:4000',
      'localhost:4000',
      '[::1]:4000',
      'LOCALHOST:4000',
      'mcp.example.com',
      'mcp.example.com:443',
      'proxy.internal:8443',
    ]) {
      expect(hostAllowed(policy, host), host).toBe(true);
    }
  });

  it('refuses foreign hosts, other ports and a missing Host', () => {
    for (const host of [
      'evil.example.com',
      'evil.example.com:4000',
      'localhost:4001',
      '127.0.0.1',
      'proxy.internal:9000',
      'localhost.evil.com:4000',
      undefined,
    ]) {
      expect(hostAllowed(policy, host), String(host)).toBe(false);
    }
  });

  it('accepts no Origin, loopback origins on the port and configured origins; refuses others', () => {
    expect(originAllowed(policy, undefined)).toBe(true);
    for (const origin of [
      'http://localhost:4000',
      'http://127.0.0.1:4000',
      'http://[::1]:4000',
      'https://app.example.com',
    ]) {
      expect(originAllowed(policy, origin), origin).toBe(true);
    }
    for (const origin of [
      'http://evil.example.com',
      'http://localhost:4001',
      'https://localhost:4000',
      'null',
      'not a url',
      'http://app.example.com',
    ]) {
      expect(originAllowed(policy, origin), origin).toBe(false);
    }
  });

  it('adds a concrete bind address to the defaults, but not a wildcard', () => {
    expect(hostAllowed(hostPolicy({ host: '10.1.2.3', port: 80 }), '10.1.2.3')).toBe(true);
    expect(hostAllowed(hostPolicy({ host: '10.1.2.3', port: 80 }), '10.1.2.3:80')).toBe(true);
    expect(hostAllowed(hostPolicy({ host: '0.0.0.0', port: 3000 }), '0.0.0.0:3000')).toBe(false);
    expect(hostAllowed(hostPolicy({ host: '::1', port: 3000 }), '[::1]:3000')).toBe(true);
  });

  it('sends CORS headers only for configured origins, never a wildcard', () => {
    expect(corsHeaders(policy, 'https://app.example.com')).toMatchObject({
      'Access-Control-Allow-Origin': 'https://app.example.com',
      Vary: 'Origin',
    });
    expect(corsHeaders(policy, 'http://localhost:4000')).toEqual({});
    expect(corsHeaders(policy, undefined)).toEqual({});
  });

  it('checks the bearer token', () => {
    const check = bearerChecker('s3cret-token');
    expect(check({ authorization: 'Bearer s3cret-token' })).toBe('ok');
    expect(check({ authorization: 'bearer s3cret-token' })).toBe('ok');
    expect(check({})).toBe('missing');
    expect(check({ authorization: 'Bearer s3cret-tokem' })).toBe('invalid');
    expect(check({ authorization: 'Bearer s3cret-token-and-more' })).toBe('invalid');
    expect(check({ authorization: 'Basic czNjcmV0LXRva2Vu' })).toBe('invalid');
    expect(check({ authorization: 'Bearer' })).toBe('invalid');
  });
});

describe('--http --sandbox: request checks', () => {
  let server: HttpServerProcess;
  const initialize = (headers: Record<string, string> = {}) => rawRequest(server.url, { headers, body: INITIALIZE });

  beforeAll(async () => {
    server = await spawnHttpServer(['--sandbox'], { SVC_MCP_MAX_BODY_BYTES: '65536' });
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it('a loopback Host with the port is served', async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`]) {
      const res = await initialize({ Host: host });
      expect(res.status, host).toBe(200);
    }
  });

  it('a foreign Host gets 403 (DNS rebinding)', async () => {
    for (const host of ['evil.example.com', `evil.example.com:${server.port}`, `localhost:${server.port + 1}`]) {
      const res = await initialize({ Host: host });
      expect(res.status, host).toBe(403);
      expect(rpcMessage(res.body).error?.message).toContain('Host');
    }
  });

  it('a foreign Origin gets 403; a loopback Origin is served; no CORS headers either way', async () => {
    const foreign = await initialize({ Origin: 'http://evil.example.com' });
    expect(foreign.status).toBe(403);
    expect(rpcMessage(foreign.body).error?.message).toContain('Origin');
    const local = await initialize({ Origin: `http://localhost:${server.port}` });
    expect(local.status).toBe(200);
    for (const res of [foreign, local]) expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('an unknown session id gets 404', async () => {
    const res = await rawRequest(server.url, {
      headers: { 'Mcp-Session-Id': '00000000-0000-4000-8000-000000000000' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
    expect(rpcMessage(res.body).error?.code).toBe(-32001);
    for (const method of ['GET', 'DELETE']) {
      const other = await rawRequest(server.url, {
        method,
        headers: { 'Mcp-Session-Id': 'nope', Accept: 'text/event-stream' },
      });
      expect(other.status, method).toBe(404);
    }
  });

  it('a request without a session id that is not initialize gets 400', async () => {
    const res = await rawRequest(server.url, { body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect(res.status).toBe(400);
  });

  it('a body over the limit gets 413, whether declared or streamed', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70_000) } });
    const res = await rawRequest(server.url, { body: big });
    expect(res.status).toBe(413);
    expect(rpcMessage(res.body).error?.message).toContain('65536');
  });

  it('malformed JSON gets 400 with a JSON-RPC parse error, and the server lives on', async () => {
    for (const body of ['{"jsonrpc":"2.0",', 'not json at all', '']) {
      const res = await rawRequest(server.url, { body });
      expect(res.status, body).toBe(400);
      expect(rpcMessage(res.body).error?.code, body).toBe(-32700);
    }
    const wrongShape = await rawRequest(server.url, { body: INITIALIZE.replace('"jsonrpc":"2.0"', '"jsonrpc":"1.0"') });
    expect(wrongShape.status).toBeGreaterThanOrEqual(400);
    expect(wrongShape.status).toBeLessThan(500);
    const health = await rawRequest(`${server.origin}/healthz`, { method: 'GET' });
    expect(health.status).toBe(200);
  });

  it('a body that is not application/json gets 415; other paths 404; other methods 405', async () => {
    expect((await rawRequest(server.url, { headers: { 'Content-Type': 'text/plain' }, body: INITIALIZE })).status).toBe(
      415,
    );
    expect((await rawRequest(`${server.origin}/other`, { body: INITIALIZE })).status).toBe(404);
    expect((await rawRequest(server.url, { method: 'PUT', body: INITIALIZE })).status).toBe(405);
  });

  it('no token configured: no WWW-Authenticate challenge', async () => {
    const res = await initialize();
    expect(res.status).toBe(200);
    expect(res.headers['www-authenticate']).toBeUndefined();
  });
});

describe('--http with SVC_MCP_AUTH_TOKEN', () => {
  const TOKEN = 'http-token-Qz8Lw3Nv6Rb1-kP4sX9mT2yHc';
  let server: HttpServerProcess;

  beforeAll(async () => {
    server = await spawnHttpServer(['--sandbox'], { SVC_MCP_AUTH_TOKEN: TOKEN });
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    expect(server.stderr()).not.toContain(TOKEN);
  });

  it('a missing token gets 401 with WWW-Authenticate: Bearer', async () => {
    const res = await rawRequest(server.url, { body: INITIALIZE });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('a wrong token gets 401 with WWW-Authenticate: Bearer error="invalid_token"', async () => {
    for (const value of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await rawRequest(server.url, { headers: { Authorization: value }, body: INITIALIZE });
      expect(res.status, value).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer .*invalid_token/);
    }
  });

  it('the right token gets 200, and the SDK client works with it', async () => {
    const res = await rawRequest(server.url, { headers: { Authorization: `Bearer ${TOKEN}` }, body: INITIALIZE });
    expect(res.status).toBe(200);
    const { client, transport } = await connectClient(server.url, { Authorization: `Bearer ${TOKEN}` });
    const result = (await client.callTool({
      name: 'search_list_tokenizer_languages',
      arguments: {},
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    await transport.terminateSession();
    await client.close();
  });

  it('/healthz needs no token', async () => {
    const res = await rawRequest(`${server.origin}/healthz`, { method: 'GET' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
  });
});

describe('--http start-up refusals', () => {
  it('refuses to bind beyond loopback without SVC_MCP_AUTH_TOKEN', async () => {
    const { code, stderr } = await runCli(['--http', '--host', '0.0.0.0', '--port', '0', '--sandbox']);
    expect(code).not.toBe(0);
    expect(stderr).toContain('SVC_MCP_AUTH_TOKEN');
    expect(stderr).toContain('0.0.0.0');
    expect(stderr).not.toContain('listening on');
  });

  it('refuses a token under 32 characters, on loopback too: exit code 2, one line, the token not shown', async () => {
    for (const host of ['0.0.0.0', '127.0.0.1']) {
      const { code, stderr } = await runCli(['--http', '--host', host, '--port', '0'], {
        SVC_MCP_AUTH_TOKEN: 'hunter2',
      });
      expect(code, host).toBe(2);
      expect(stderr).toBe(
        'svc-platform-mcp: SVC_MCP_AUTH_TOKEN must be at least 32 characters (it has 7): generate one with `openssl rand -hex 32`\n',
      );
    }
  });

  it('binds beyond loopback with a token; only loopback Host names are allowed unless configured', async () => {
    const server = await spawnHttpServer(['--host', '0.0.0.0', '--sandbox'], {
      SVC_MCP_AUTH_TOKEN: 't0ken-for-wildcard-bind-0123456789',
      SVC_MCP_ALLOWED_HOSTS: 'mcp.example.com',
    });
    try {
      const auth = { Authorization: 'Bearer t0ken-for-wildcard-bind-0123456789' };
      const local = await rawRequest(`http://127.0.0.1:${server.port}/mcp`, { headers: auth, body: INITIALIZE });
      expect(local.status).toBe(200);
      const configured = await rawRequest(`http://127.0.0.1:${server.port}/mcp`, {
        headers: { ...auth, Host: 'mcp.example.com' },
        body: INITIALIZE,
      });
      expect(configured.status).toBe(200);
      const foreign = await rawRequest(`http://127.0.0.1:${server.port}/mcp`, {
        headers: { ...auth, Host: 'other.example.com' },
        body: INITIALIZE,
      });
      expect(foreign.status).toBe(403);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('--http with SVC_MCP_ALLOWED_ORIGINS', () => {
  it('answers CORS preflights and adds CORS headers for configured origins only', async () => {
    const server = await spawnHttpServer(['--sandbox'], { SVC_MCP_ALLOWED_ORIGINS: 'https://app.example.com' });
    try {
      const preflight = await rawRequest(server.url, {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(preflight.headers['access-control-allow-headers']).toContain('Mcp-Session-Id');
      // A browser client of 2026-07-28 sends the standard headers, and any client may narrow its tools.
      for (const name of ['Mcp-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'X-MCP-Read-Only', 'X-MCP-Tools']) {
        expect(preflight.headers['access-control-allow-headers']).toContain(name);
      }
      const post = await rawRequest(server.url, { headers: { Origin: 'https://app.example.com' }, body: INITIALIZE });
      expect(post.status).toBe(200);
      expect(post.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(post.headers['access-control-expose-headers']).toContain('Mcp-Session-Id');
      const foreign = await rawRequest(server.url, {
        headers: { Origin: 'https://evil.example.com' },
        body: INITIALIZE,
      });
      expect(foreign.status).toBe(403);
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
