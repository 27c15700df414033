/**
 * A client that sends many requests and does not read stdout: the server stops reading stdin while its answers wait
 * to be written, so that its memory stays bounded, and serves the rest once the client reads again. Memory is what
 * the server holds after a full collection (test/helpers/heap-probe.ts), which garbage and the load do not move; no
 * clock bounds (the test's timeout only ends a hang).
 */
import { afterAll, expect, it } from 'vitest';
import { HEAP_PROBE_OPTIONS, liveBytes } from '../../helpers/heap-probe.js';
import { spawnRawStdio, type RawStdioServer } from '../../helpers/raw-stdio.js';

const MiB = 1024 * 1024;
// Each tools/list answer is about 20 KiB: 3,000 of them would hold some 60 MiB of answers in memory.
const REQUESTS = 3_000;
const PAD = 'p'.repeat(200);

let server: RawStdioServer | undefined;
afterAll(() => server?.kill());

it('stops reading stdin while stdout is backed up, keeps its memory bounded, and answers everything once read', async () => {
  server = spawnRawStdio([], { NODE_OPTIONS: HEAP_PROBE_OPTIONS });
  await server.initialize();
  server.child.stdout.pause();
  const baseline = await liveBytes(server.child, server.stderr);

  let batch = '';
  for (let id = 1; id <= REQUESTS; id++)
    batch += `${JSON.stringify({ jsonrpc: '2.0', id: `bp-${id}`, method: 'tools/list', params: { _meta: { pad: PAD } } })}\n`;
  server.child.stdin.write(batch);

  // Once the server stops reading (stdin's pipe full, stdin's buffer on this side holding the rest), what it holds.
  await until(() => server!.child.stdin.writableLength > 0);
  let held = 0;
  for (let i = 0; i < 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    held = Math.max(held, (await liveBytes(server.child, server.stderr)) - baseline);
  }
  // The server took only what it could answer: most of the requests still wait on the client's side of the pipe.
  expect(server.child.stdin.writableLength).toBeGreaterThan((REQUESTS * PAD.length) / 2);
  expect(held, `${(held / MiB).toFixed(1)} MiB held`).toBeLessThan(15 * MiB);
  expect(server.stderr()).not.toContain('MaxListenersExceededWarning');

  server.child.stdout.resume();
  await until(
    () => server!.messages.filter((m) => typeof m.id === 'string' && m.id.startsWith('bp-')).length === REQUESTS,
  );
  expect(
    server.messages
      .filter((m) => typeof m.id === 'string' && m.id.startsWith('bp-'))
      .every((m) => Array.isArray(m.result?.tools)),
  ).toBe(true);
  expect(server.child.exitCode).toBeNull();
}, 600_000);

/** Waits for an event, however long the machine takes. */
async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 10));
}
