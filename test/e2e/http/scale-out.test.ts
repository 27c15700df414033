import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { NGINX_EXAMPLE, findNginx, startNginx, type NginxProcess } from '../../helpers/nginx.js';
import { rawRequest, spawnHttpServer, waitFor, type HttpServerProcess } from '../../helpers/spawn-http.js';

// Two replicas (`--http --sandbox`, SVC_MCP_REPLICA_ID r1 and r2) behind nginx running the shipped example
// (deploy/nginx/svc-platform-mcp.conf, ports rewritten), in both modes. Several clients make calls through
// the proxy; r1 is SIGKILLed a third of the way through.
//   stateless: every call started after r1 is gone succeeds; a call in flight at that moment either
//              succeeds or fails with a clear error; both replicas served calls before.
//   sessions:  clients whose session lived on r1 get 404 (JSON-RPC -32001) from the proxy's backup,
//              initialise a new session (on r2) and carry on; clients on r2 never notice.

const nginx = findNginx();
const TOKEN = randomBytes(24).toString('hex'); // 48 hex characters
const CLIENTS = 6;
const CALLS = 30; // per client and mode: 2 x 180 calls through the proxy
const KILL_AFTER = 60; // completed calls (of 180) before r1 is killed
const CALL_TIMEOUT_MS = 10_000; // a safety net: no call here should come near it

type ReplicaId = 'r1' | 'r2';

interface Cluster {
  dir: string;
  replicas: Record<ReplicaId, HttpServerProcess>;
  proxy: NginxProcess;
  url: string;
}

async function startCluster(stateless: boolean): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-scale-out-'));
  const flags = stateless ? ['--sandbox', '--stateless'] : ['--sandbox'];
  // The proxy forwards the client's Host (127.0.0.1 here; the public name in production): allowed by name. It is
  // trusted for X-Forwarded-For, as the shipped unit suggests (the clients here are all 127.0.0.1: one client, whose
  // CLIENTS sessions stay within SVC_MCP_MAX_SESSIONS_PER_CLIENT on either replica).
  const env = (id: ReplicaId) => ({
    SVC_MCP_AUTH_TOKEN: TOKEN,
    SVC_MCP_REPLICA_ID: id,
    SVC_MCP_ALLOWED_HOSTS: '127.0.0.1',
    SVC_MCP_TRUSTED_PROXIES: '127.0.0.1',
  });
  const spawned = await Promise.allSettled([spawnHttpServer(flags, env('r1')), spawnHttpServer(flags, env('r2'))]);
  try {
    const [r1, r2] = spawned.map((s) => {
      if (s.status === 'rejected') throw s.reason;
      return s.value;
    }) as [HttpServerProcess, HttpServerProcess];
    const proxy = await startNginx(nginx!, dir, [r1.port, r2.port]);
    return { dir, replicas: { r1, r2 }, proxy, url: `${proxy.origin}/mcp` };
  } catch (error) {
    await Promise.all(spawned.map((s) => (s.status === 'fulfilled' ? s.value.stop('SIGKILL') : undefined)));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function stopCluster(cluster: Cluster | undefined): Promise<void> {
  if (!cluster) return;
  await cluster.proxy.stop();
  await Promise.all(Object.values(cluster.replicas).map((r) => r.stop('SIGKILL')));
  rmSync(cluster.dir, { recursive: true, force: true });
}

/**
 * An SDK client through the proxy. A response stream that breaks after the replica had started answering
 * (headers sent, then the process died) is reported by the SDK only through onerror, and the call would
 * wait for its timeout: the fetch below notices the broken stream of the call's own POST and fails that
 * call at once.
 */
class ProxyClient {
  private constructor(
    readonly client: Client,
    readonly transport: StreamableHTTPClientTransport,
    /** The call in flight (one at a time per client). */
    private readonly inFlight: { call?: AbortController },
  ) {}

  static async connect(url: string): Promise<ProxyClient> {
    const inFlight: { call?: AbortController } = {};
    const watchedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const response = await fetch(input, init);
      if (
        init?.method !== 'POST' ||
        !response.body ||
        !response.headers.get('content-type')?.startsWith('text/event-stream')
      )
        return response;
      const reader = response.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value);
          } catch (error) {
            inFlight.call?.abort(new Error(`response stream broken: ${(error as Error).message}`));
            controller.error(error);
          }
        },
        cancel: (reason) => reader.cancel(reason),
      });
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      fetch: watchedFetch,
    });
    const client = new Client({ name: 'svc-platform-mcp-scale-out-test', version: '0.0.0' });
    client.onerror = () => {}; // a session's standalone GET stream ends with its replica: expected here
    await client.connect(transport);
    return new ProxyClient(client, transport, inFlight);
  }

  get sessionId(): string | undefined {
    return this.transport.sessionId;
  }

  async call(client: number, n: number): Promise<CallToolResult> {
    this.inFlight.call = new AbortController();
    const options = { signal: this.inFlight.call.signal, timeout: CALL_TIMEOUT_MS };
    try {
      const result =
        n % 2 === 0
          ? await this.client.callTool({ name: 'search_list_tokenizer_languages', arguments: {} }, undefined, options)
          : await this.client.callTool(
              {
                name: 'translation_translate_text',
                arguments: { source: 'ko', target: 'en', text: `안녕하세요 ${client}-${n}` },
              },
              undefined,
              options,
            );
      return result as CallToolResult;
    } finally {
      this.inFlight.call = undefined;
    }
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => {});
  }
}

interface Attempt {
  client: number;
  call: number;
  /** The session the attempt was made on (session mode). */
  session?: string;
  start: number;
  end: number;
  error?: unknown;
}

/** The moments around the kill (performance.now()): signal sent, and process gone (its sockets closed). */
interface Kill {
  sent: number;
  gone: number;
}

/** Kills r1 once `completed()` calls are done; the calls keep running meanwhile. */
async function killR1After(cluster: Cluster, completed: () => number, kill: Kill): Promise<{ r1: number; r2: number }> {
  await waitFor(() => completed() >= KILL_AFTER, 20_000, `${KILL_AFTER} calls before the kill`);
  const served = { r1: toolCalls(cluster.replicas.r1), r2: toolCalls(cluster.replicas.r2) };
  kill.sent = performance.now();
  await cluster.replicas.r1.stop('SIGKILL');
  kill.gone = performance.now();
  return served;
}

/** Successful tool calls in a replica's request log. */
function toolCalls(replica: HttpServerProcess): number {
  return replica
    .stderr()
    .split('\n')
    .filter(
      (l) => l.startsWith('{"event":"http_request"') && l.includes('"rpc":"tools/call"') && l.includes('"status":200'),
    ).length;
}

function describeError(error: unknown): string {
  if (error instanceof StreamableHTTPError) return `HTTP ${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** What a call in flight at the kill may end with: the proxy's JSON 502, or its response stream cut. */
function isClearInFlightFailure(error: unknown): boolean {
  if (error instanceof StreamableHTTPError)
    return error.code === 502 && error.message.includes('"code":-32000') && error.message.includes('Bad gateway');
  // The SDK wraps the abort reason: "MCP error -32001: Error: response stream broken: terminated".
  return error instanceof Error && error.message.includes('response stream broken');
}

function isSessionNotFound(error: unknown): boolean {
  return (
    error instanceof StreamableHTTPError &&
    error.code === 404 &&
    error.message.includes('"code":-32001') &&
    error.message.includes('Session not found')
  );
}

if (!nginx) {
  describe('scale-out behind nginx', () => {
    it.skip('needs nginx, which is not installed: `apt-get install nginx` (Debian/Ubuntu; .ci/run installs it) to run this test', () => {});
  });
} else {
  describe(`scale-out: two replicas behind nginx (${NGINX_EXAMPLE}), --stateless`, () => {
    let cluster: Cluster | undefined;
    beforeAll(async () => {
      cluster = await startCluster(true);
    });
    afterAll(() => stopCluster(cluster));

    it(`${CLIENTS} clients x ${CALLS} calls; r1 killed mid-run: every call started after that succeeds`, async () => {
      const { url } = cluster!;
      const started = performance.now();
      const attempts: Attempt[] = [];
      const kill: Kill = { sent: Infinity, gone: Infinity };
      const killing = killR1After(cluster!, () => attempts.length, kill);
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, c) => {
          const client = await ProxyClient.connect(url);
          for (let n = 0; n < CALLS; n += 1) {
            const attempt: Partial<Attempt> = { client: c, call: n, start: performance.now() };
            try {
              const result = await client.call(c, n);
              if (result.isError) attempt.error = new Error(`tool error: ${JSON.stringify(result.content)}`);
            } catch (error) {
              attempt.error = error;
            }
            attempt.end = performance.now();
            attempts.push(attempt as Attempt);
          }
          await client.close();
        }),
      );
      const servedBefore = await killing;

      expect(attempts).toHaveLength(CLIENTS * CALLS);
      // Round-robin: both replicas served calls before the kill.
      expect(servedBefore.r1).toBeGreaterThanOrEqual(KILL_AFTER / 5);
      expect(servedBefore.r2).toBeGreaterThanOrEqual(KILL_AFTER / 5);

      const after = attempts.filter((a) => a.start >= kill.gone);
      const inFlight = attempts.filter((a) => a.start < kill.gone && a.end >= kill.sent);
      const failed = attempts.filter((a) => a.error !== undefined);
      expect(after.length).toBeGreaterThan((CLIENTS * CALLS - KILL_AFTER) / 2);
      for (const a of after)
        expect(a.error, `call ${a.client}/${a.call} after the kill: ${describeError(a.error)}`).toBeUndefined();
      for (const a of failed) {
        expect(
          inFlight,
          `call ${a.client}/${a.call} failed but was not in flight at the kill: ${describeError(a.error)}`,
        ).toContain(a);
        expect(isClearInFlightFailure(a.error), describeError(a.error)).toBe(true);
      }
      // Everything after the kill went to r2.
      await waitFor(() => toolCalls(cluster!.replicas.r2) >= servedBefore.r2 + after.length, 5_000, 'r2 log lines');

      const retried = cluster!.proxy
        .accessLog()
        .split('\n')
        .filter((l) => l.includes(', ')).length;
      console.log(
        `stateless: ${attempts.length} calls in ${Math.round(performance.now() - started)} ms; before the kill r1 served ${servedBefore.r1}, ` +
          `r2 ${servedBefore.r2}; in flight at the kill ${inFlight.length} (${failed.length} failed: ` +
          `${[...new Set(failed.map((a) => describeError(a.error).slice(0, 160)))].join(' | ') || 'none'}); ` +
          `started after it ${after.length}, all succeeded; requests nginx moved to the other replica: ${retried}`,
      );
    }, 60_000);
  });

  describe(`scale-out: two replicas behind nginx (${NGINX_EXAMPLE}), sessions`, () => {
    let cluster: Cluster | undefined;
    beforeAll(async () => {
      cluster = await startCluster(false);
    });
    afterAll(() => stopCluster(cluster));

    it(`${CLIENTS} clients x ${CALLS} calls; r1 killed mid-run: its sessions get 404 and re-initialise, r2's never notice`, async () => {
      const { url } = cluster!;
      const started = performance.now();
      // One after another: initialize carries no session id and goes round-robin, so the sessions alternate.
      const clients: ProxyClient[] = [];
      for (let c = 0; c < CLIENTS; c += 1) clients.push(await ProxyClient.connect(url));
      const home = clients.map((client) => client.sessionId!.slice(0, 2) as ReplicaId);
      for (const client of clients) expect(client.sessionId).toMatch(/^r[12]\.[0-9a-f-]{36}$/);
      expect(home.filter((r) => r === 'r1').length).toBeGreaterThanOrEqual(2);
      expect(home.filter((r) => r === 'r2').length).toBeGreaterThanOrEqual(2);

      const attempts: Attempt[] = [];
      const sessions: string[][] = clients.map((client) => [client.sessionId!]);
      const kill: Kill = { sent: Infinity, gone: Infinity };
      const killing = killR1After(cluster!, () => attempts.filter((a) => a.error === undefined).length, kill);
      await Promise.all(
        clients.map(async (first, c) => {
          let client = first;
          for (let n = 0; n < CALLS; n += 1) {
            const attempt: Partial<Attempt> = {
              client: c,
              call: n,
              session: client.sessionId,
              start: performance.now(),
            };
            try {
              const result = await client.call(c, n);
              if (result.isError) attempt.error = new Error(`tool error: ${JSON.stringify(result.content)}`);
            } catch (error) {
              attempt.error = error;
            }
            attempt.end = performance.now();
            attempts.push(attempt as Attempt);
            if (isSessionNotFound(attempt.error)) {
              // The session is gone and the call never ran: a new session, then the same call again.
              await client.close();
              client = await ProxyClient.connect(url);
              sessions[c]!.push(client.sessionId!);
              n -= 1;
            }
          }
          if (client.sessionId) await client.transport.terminateSession();
          await client.close();
        }),
      );
      await killing;

      const notFound = attempts.filter((a) => isSessionNotFound(a.error));
      const other = attempts.filter((a) => a.error !== undefined && !isSessionNotFound(a.error));
      for (let c = 0; c < CLIENTS; c += 1) {
        const mine = attempts.filter((a) => a.client === c);
        const succeeded = mine.filter((a) => a.error === undefined || !isSessionNotFound(a.error));
        expect(succeeded, `client ${c} made every call`).toHaveLength(CALLS);
        if (home[c] === 'r2') {
          // Never noticed: one session, every call answered.
          expect(sessions[c]).toHaveLength(1);
          expect(mine.filter((a) => a.error !== undefined).map((a) => describeError(a.error))).toEqual([]);
        } else {
          // Exactly one 404 (after the kill), then a new session on the surviving replica, and no failure since.
          const mine404 = mine.filter((a) => isSessionNotFound(a.error));
          expect(mine404).toHaveLength(1);
          expect(mine404[0]!.start).toBeGreaterThanOrEqual(kill.sent);
          expect(mine404[0]!.session).toMatch(/^r1\./);
          expect(sessions[c]).toHaveLength(2);
          expect(sessions[c]![1]).toMatch(/^r2\./);
          const later = mine.filter((a) => a.start > mine404[0]!.end);
          expect(later.map((a) => a.error && describeError(a.error)).filter(Boolean)).toEqual([]);
        }
      }
      // Quick: a refused connection, then the backup's answer, never a wait for proxy_connect_timeout (which nginx
      // would log as "upstream timed out ... while connecting to upstream").
      expect(notFound.length).toBeGreaterThan(0);
      expect(cluster!.proxy.stderr()).not.toContain('upstream timed out');
      // Any other failure is a call that was in flight on r1 at the kill, with a clear error.
      for (const a of other) {
        expect(a.session, describeError(a.error)).toMatch(/^r1\./);
        expect(
          a.start < kill.gone && a.end >= kill.sent,
          `call ${a.client}/${a.call} failed outside the kill: ${describeError(a.error)}`,
        ).toBe(true);
        expect(isClearInFlightFailure(a.error), describeError(a.error)).toBe(true);
      }
      // The 404s are r2's own answer (an id it does not know), not the proxy's.
      const unknownOnR2 = () =>
        cluster!.replicas.r2
          .stderr()
          .split('\n')
          .filter((l) => l.includes('"refused":"unknown_session"')).length;
      await waitFor(() => unknownOnR2() >= notFound.length, 5_000, 'unknown_session lines on r2');

      console.log(
        `sessions: ${attempts.length} attempts in ${Math.round(performance.now() - started)} ms; sessions on r1 ${home.filter((r) => r === 'r1').length}, ` +
          `on r2 ${home.filter((r) => r === 'r2').length}; 404 -32001 then re-initialised: ${notFound.length} ` +
          `(${notFound.map((a) => `${Math.round(a.end - a.start)} ms`).join(', ')}); failed in flight: ${other.length}` +
          (other.length
            ? ` (${[...new Set(other.map((a) => describeError(a.error).slice(0, 160)))].join(' | ')})`
            : ''),
      );
    }, 60_000);

    it('after the kill: a dead session gets the JSON 404 through the proxy, a missing token 401, and /healthz 200', async () => {
      const { proxy, url } = cluster!;
      const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const dead = await rawRequest(url, {
        headers: {
          Authorization: `Bearer ${TOKEN}`,
          'Mcp-Session-Id': 'r1.00000000-0000-4000-8000-000000000000',
          'Mcp-Protocol-Version': '2025-06-18',
        },
        body,
      });
      expect(dead.status).toBe(404);
      expect(dead.headers['content-type']).toBe('application/json');
      expect(JSON.parse(dead.body)).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32001 } });
      const anonymous = await rawRequest(url, { body });
      expect(anonymous.status).toBe(401);
      expect((await rawRequest(`${proxy.origin}/healthz`, { method: 'GET' })).status).toBe(200);
    });
  });
}
