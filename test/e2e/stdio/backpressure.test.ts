/**
 * A client that sends many requests and does not read stdout: the server stops reading stdin while its answers wait
 * to be written, so that its memory stays bounded, and serves the rest once the client reads again.
 */
import { afterAll, expect, it } from 'vitest';
import { spawnRawStdio, type RawStdioServer } from '../../helpers/raw-stdio.js';
import { rssOf, waitFor } from '../../helpers/spawn-http.js';

const MiB = 1024 * 1024;
// Each tools/list answer is about 20 KiB: 3,000 of them would hold some 60 MiB of answers in memory.
const REQUESTS = 3_000;
const PAD = 'p'.repeat(200);

let server: RawStdioServer | undefined;
afterAll(() => server?.kill());

it('stops reading stdin while stdout is backed up, keeps its memory bounded, and answers everything once read', async () => {
  server = spawnRawStdio([], {});
  await server.initialize();
  server.child.stdout.pause();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const baseline = rssOf(server.child.pid!);

  let batch = '';
  for (let id = 1; id <= REQUESTS; id++)
    batch += `${JSON.stringify({ jsonrpc: '2.0', id: `bp-${id}`, method: 'tools/list', params: { _meta: { pad: PAD } } })}\n`;
  server.child.stdin.write(batch);

  let peak = baseline;
  for (let i = 0; i < 15; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    peak = Math.max(peak, rssOf(server.child.pid!));
  }
  // The server took only what it could answer: most of the requests still wait on the client's side of the pipe.
  expect(server.child.stdin.writableLength).toBeGreaterThan((REQUESTS * PAD.length) / 2);
  expect(peak - baseline).toBeLessThan(30 * MiB);
  expect(server.stderr()).not.toContain('MaxListenersExceededWarning');

  server.child.stdout.resume();
  await waitFor(
    () => server!.messages.filter((m) => typeof m.id === 'string' && m.id.startsWith('bp-')).length === REQUESTS,
    20_000,
    'every answer',
  );
  expect(
    server.messages
      .filter((m) => typeof m.id === 'string' && m.id.startsWith('bp-'))
      .every((m) => Array.isArray(m.result?.tools)),
  ).toBe(true);
  expect(server.child.exitCode).toBeNull();
}, 40_000);
