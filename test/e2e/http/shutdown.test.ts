import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { LANGUAGES, fullEnv } from '../../helpers/upstream.js';
import { connectClient, connectEraClient, rawRequest, spawnHttpServer, waitFor } from '../../helpers/spawn-http.js';

// SIGTERM while tool calls are in flight: a slow upstream on loopback (no sandbox: a spawned server's sandbox
// faults are out of reach) keeps the calls busy while the signal arrives.

const UPSTREAM_DELAY_MS = 1_500;
const CALLS = 6;

describe('graceful shutdown', () => {
  let upstream: RecordingServer;

  beforeAll(async () => {
    upstream = await startRecordingServer();
    upstream.setFallback({ status: 200, body: LANGUAGES, delayMs: UPSTREAM_DELAY_MS });
  });
  afterAll(async () => {
    await upstream.close();
  });

  for (const mode of ['sessions', 'stateless'] as const) {
    it(`${mode}: SIGTERM during in-flight calls (2025 and 2026-07-28 clients) lets them complete, then the process exits 0`, async () => {
      upstream.reset();
      upstream.setFallback({ status: 200, body: LANGUAGES, delayMs: UPSTREAM_DELAY_MS });
      const server = await spawnHttpServer(mode === 'stateless' ? ['--stateless'] : [], fullEnv(upstream.url));
      const clients = await Promise.all((['2025', '2026'] as const).map((era) => connectEraClient(era, server.url)));
      const calls = Array.from(
        { length: CALLS },
        (_, i) =>
          clients[i % 2]!.callTool({
            name: 'search_list_tokenizer_languages',
            arguments: {},
          }) as Promise<CallToolResult>,
      );
      await waitFor(() => upstream.requests.length === CALLS, 10_000, 'every call to reach the upstream');

      server.child.kill('SIGTERM');
      // Stopped accepting: a new connection is refused while the calls are still running.
      await waitFor(() => server.stderr().includes('SIGTERM received'), 5_000, 'the signal to be handled');
      await expect(rawRequest(`${server.origin}/healthz`, { method: 'GET' })).rejects.toThrow();

      const results = await Promise.all(calls);
      for (const result of results) {
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        expect(result.structuredContent).toEqual({ languages: LANGUAGES });
      }
      expect(await server.exited).toBe(0);
      // Every call was answered before its end: no grace period ran out.
      expect(server.stderr()).not.toContain('shutdown_grace_expired');
      for (const client of clients) await client.close().catch(() => {});
    }, 30_000);
  }

  it('SVC_MCP_SHUTDOWN_GRACE_MS bounds the wait; the calls cut off answer [shutting_down], saying whether they were sent', async () => {
    upstream.reset();
    upstream.setFallback({ hang: true });
    const server = await spawnHttpServer(
      [],
      fullEnv(upstream.url, { SVC_MCP_SHUTDOWN_GRACE_MS: '300', SVC_TIMEOUT_MS: '20000' }),
    );
    const { client } = await connectClient(server.url);
    // Stopped at the end of the grace period: each call gets its answer on its stream (without, the client would
    // wait for its own timeout).
    const read = client.callTool({ name: 'search_list_tokenizer_languages', arguments: {} }, undefined, {
      timeout: 5_000,
    }) as Promise<CallToolResult>;
    const write = client.callTool(
      { name: 'kms_migrate_key', arguments: { keyTag: 'kt-1', targetRegion: 'JPN', confirm: 'kt-1' } },
      undefined,
      { timeout: 5_000 },
    ) as Promise<CallToolResult>;
    await waitFor(() => upstream.requests.length === 2, 10_000, 'the calls to reach the upstream');
    server.child.kill('SIGTERM');
    const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;
    const [readResult, writeResult] = await Promise.all([read, write]);
    expect(readResult.isError).toBe(true);
    expect(text(readResult)).toMatch(/failed \[shutting_down\]: the server shut down before the call ended/);
    expect(writeResult.isError).toBe(true);
    expect(text(writeResult)).toMatch(
      /failed \[shutting_down\]: the server shut down before the call ended\. The outcome is unknown: the request may have reached the upstream/,
    );
    // The upstream never answers and the calls' own timeout is 20 s: they ended by the grace period, as logged.
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('"event":"shutdown_grace_expired","graceMs":300,"cutOff":2,"stopped":2');
    await client.close().catch(() => {});
  }, 30_000);

  it('SIGINT with nothing in flight exits 0 at once', async () => {
    const server = await spawnHttpServer(['--sandbox']);
    const { client } = await connectClient(server.url); // holds a session and its GET stream open
    // The open stream is no call to wait for: no grace period runs (the client closes only after the exit).
    expect(await server.stop('SIGINT')).toBe(0);
    expect(server.stderr()).not.toContain('shutdown_grace_expired');
    await client.close().catch(() => {});
  });
});
