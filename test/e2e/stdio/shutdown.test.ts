/**
 * Stopping a stdio server while a call is in flight (a destructive E15 that already reached a slow upstream on
 * loopback): on SIGTERM or stdin EOF it gets SVC_MCP_SHUTDOWN_GRACE_MS to finish and its result is written before
 * the exit; past the grace period it is answered with `[shutting_down]`, saying the request went out. Either way
 * the process exits 0. A second signal ends it at once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { resultText, spawnRawStdio, type RawStdioServer } from '../../helpers/raw-stdio.js';
import { fullEnv } from '../../helpers/upstream.js';
import { waitFor } from '../../helpers/spawn-http.js';

const UPSTREAM_DELAY_MS = 1_500;
const MIGRATE = { name: 'kms_migrate_key', arguments: { keyTag: 'kt-1', targetRegion: 'JPN', confirm: 'kt-1' } };
const MIGRATED = { code: 'SUCCESS', data: { keyTag: 'kt-1', targetRegion: 'JPN' } };

let upstream: RecordingServer;
const servers: RawStdioServer[] = [];

beforeAll(async () => {
  upstream = await startRecordingServer();
});
beforeEach(() => {
  upstream.reset();
  upstream.setFallback({ status: 200, body: MIGRATED, delayMs: UPSTREAM_DELAY_MS });
});
afterAll(async () => {
  for (const server of servers) server.kill();
  await upstream?.close();
});

/** A server with the E15 call in flight: it has reached the upstream, which answers after 1.5 s. */
async function serverWithCallInFlight(env: Record<string, string>): Promise<RawStdioServer> {
  const server = spawnRawStdio([], fullEnv(upstream.url, env));
  servers.push(server);
  await server.initialize();
  server.send({ jsonrpc: '2.0', id: 'migrate', method: 'tools/call', params: MIGRATE });
  await waitFor(() => upstream.requests.length === 1, 10_000, 'the call to reach the upstream');
  return server;
}

const stops = {
  SIGTERM: (server: RawStdioServer) => void server.child.kill('SIGTERM'),
  SIGINT: (server: RawStdioServer) => void server.child.kill('SIGINT'),
  'stdin EOF': (server: RawStdioServer) => void server.child.stdin.end(),
};

describe.each(Object.entries(stops))('%s during a slow call', (_, stop) => {
  it('within the grace period: the result is written, then the process exits 0', async () => {
    const server = await serverWithCallInFlight({ SVC_MCP_SHUTDOWN_GRACE_MS: '5000' });
    stop(server);
    const { code, signal } = await server.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    const answer = server.messages.find((m) => m.id === 'migrate');
    expect(answer, server.stderr()).toBeDefined();
    expect(answer!.result?.isError, resultText(answer!)).toBeFalsy();
    expect(answer!.result?.structuredContent).toMatchObject({ data: { keyTag: 'kt-1' } });
    // The upstream's answer, not the end of the grace period, let it go.
    expect(server.stderr()).not.toContain('shutdown_grace_expired');
  }, 20_000);

  it('past SVC_MCP_SHUTDOWN_GRACE_MS: answered with [shutting_down], saying the request went out, then exit 0', async () => {
    // An upstream that never answers: only the end of the grace period can end the call.
    upstream.setFallback({ hang: true });
    const server = await serverWithCallInFlight({ SVC_MCP_SHUTDOWN_GRACE_MS: '300' });
    stop(server);
    const { code, signal } = await server.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    const answer = server.messages.find((m) => m.id === 'migrate');
    expect(answer, server.stderr()).toBeDefined();
    expect(answer!.result?.isError).toBe(true);
    expect(resultText(answer!)).toMatch(/\[shutting_down\].*may have reached the upstream/);
    expect(server.stderr()).toContain('"event":"shutdown_grace_expired","graceMs":300');
  }, 20_000);
});

it('after SIGTERM, a new request is refused at once, while the call in flight is still answered', async () => {
  const server = await serverWithCallInFlight({ SVC_MCP_SHUTDOWN_GRACE_MS: '5000' });
  server.child.kill('SIGTERM');
  await waitFor(() => server.stderr().includes('SIGTERM received'), 5_000, 'the signal to be handled');
  const refused = await server.request('tools/list');
  expect(refused.error?.code).toBe(-32000);
  expect(refused.error?.message).toMatch(/shutting down/);
  expect(await server.exited).toEqual({ code: 0, signal: null });
  expect(server.messages.find((m) => m.id === 'migrate')?.result?.isError).toBeFalsy();
}, 20_000);

it("after SIGTERM, the client's cancellation still arrives, and the cancelled call (answered by no one) does not hold the exit", async () => {
  // An upstream that never answers: held by the call, the exit would wait out the grace period and log so.
  upstream.setFallback({ hang: true });
  const server = await serverWithCallInFlight({ SVC_MCP_SHUTDOWN_GRACE_MS: '5000' });
  server.child.kill('SIGTERM');
  await waitFor(() => server.stderr().includes('SIGTERM received'), 5_000, 'the signal to be handled');
  server.send({
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId: 'migrate', reason: 'the user gave up' },
  });
  expect(await server.exited).toEqual({ code: 0, signal: null });
  expect(server.stderr()).not.toContain('shutdown_grace_expired');
  expect(server.messages.find((m) => m.id === 'migrate')).toBeUndefined();
  expect(server.stderr()).toContain('"tool":"kms_migrate_key","outcome":"cancelled"');
}, 20_000);

it('a second SIGTERM ends the process at once, without waiting for the call', async () => {
  upstream.setFallback({ hang: true });
  const server = await serverWithCallInFlight({});
  server.child.kill('SIGTERM');
  await waitFor(() => server.stderr().includes('SIGTERM received'), 5_000, 'the signal to be handled');
  server.child.kill('SIGTERM');
  // Not the graceful way (which exits 0 after the grace period, logging it): the upstream never answers.
  const { code, signal } = await server.exited;
  expect(code === 0 && signal === null).toBe(false);
  expect(server.stderr()).not.toContain('shutdown_grace_expired');
}, 20_000);

it('after SIGTERM, requests the client wrote while stdout was backed up are still read and answered, not dropped at the exit', async () => {
  const server = spawnRawStdio([], fullEnv(upstream.url, { SVC_MCP_SHUTDOWN_GRACE_MS: '5000' }));
  servers.push(server);
  await server.initialize();
  server.child.stdout.pause();
  // Each answer is some 20 KiB: the server stops reading stdin after the first few, while stdout is backed up.
  const ids = Array.from({ length: 300 }, (_, i) => `list-${i}`);
  server.child.stdin.write(
    ids.map((id) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })}\n`).join(''),
  );
  // The first answers wait unread on this side of the pipe: the server has read some requests, not all.
  await waitFor(() => server.child.stdout.readableLength > 0, 5_000, 'the first answers');
  server.child.kill('SIGTERM');
  await waitFor(() => server.stderr().includes('SIGTERM received'), 5_000, 'the signal to be handled');
  server.child.stdout.resume();
  expect(await server.exited).toEqual({ code: 0, signal: null });
  const answers = ids.map((id) => server.messages.find((m) => m.id === id));
  expect(answers.filter((a) => a === undefined)).toHaveLength(0);
  // Those read before the signal have their tools; the rest are refused as the server shuts down.
  expect(answers.filter((a) => Array.isArray(a!.result?.tools)).length).toBeGreaterThan(0);
  expect(answers.filter((a) => a!.error?.code === -32000).length).toBeGreaterThan(0);
  expect(answers.every((a) => Array.isArray(a!.result?.tools) || /shutting down/.test(a!.error?.message ?? ''))).toBe(
    true,
  );
}, 20_000);
