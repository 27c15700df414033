/**
 * A client that goes away on one pipe: the server must neither crash on the failed write nor keep running for
 * nobody. A closed stdout (EPIPE) ends it cleanly, exit 0; a closed stderr only silences its log.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { resultText, spawnRawStdio, type RawStdioServer } from '../../helpers/raw-stdio.js';
import { LANGUAGES, fullEnv } from '../../helpers/upstream.js';
import { waitFor } from '../../helpers/spawn-http.js';

const CALL = { name: 'search_list_tokenizer_languages', arguments: {} };

let upstream: RecordingServer;
const servers: RawStdioServer[] = [];

beforeAll(async () => {
  upstream = await startRecordingServer();
});
afterAll(async () => {
  for (const server of servers) server.kill();
  await upstream?.close();
});

it('a client that closes its end of stdout mid-call: the server exits 0 without an unhandled error', async () => {
  upstream.reset();
  upstream.setFallback({ status: 200, body: LANGUAGES, delayMs: 500 });
  const server = spawnRawStdio([], fullEnv(upstream.url));
  servers.push(server);
  await server.initialize();
  server.send({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: CALL });
  await waitFor(() => upstream.requests.length === 1, 10_000, 'the call to reach the upstream');
  server.child.stdout.destroy();
  // stdin stays open: the failed write of the answer alone must end the process.
  const { code, signal } = await server.exited;
  expect(server.stderr()).not.toMatch(/Unhandled 'error' event|Error: write EPIPE|fatal/);
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  expect(server.stderr()).toContain('"event":"stdout_closed","error":"EPIPE"');
}, 20_000);

it("a host that closes the server's stderr: logging fails silently and the server keeps answering", async () => {
  upstream.reset();
  upstream.setFallback({ status: 200, body: LANGUAGES });
  const server = spawnRawStdio([], fullEnv(upstream.url));
  servers.push(server);
  server.child.stderr.destroy();
  await server.initialize();
  // Each call logs a line to the closed stderr; the first write fails asynchronously, the next ones find it closed.
  for (let i = 0; i < 3; i++) {
    const answer = await server.request('tools/call', CALL);
    expect(answer.result?.isError, resultText(answer)).toBeFalsy();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect((await server.request('ping')).result).toEqual({});
  expect(server.child.exitCode).toBeNull();
  server.child.stdin.end();
  expect(await server.exited).toEqual({ code: 0, signal: null });
}, 20_000);
