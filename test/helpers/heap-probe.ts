/**
 * A leak measured by its slope: what the server still holds after a full collection (test/helpers/heap-probe.mjs,
 * loaded into it), read between rounds of the same calls after a warm-up, as growth per 100 calls. Garbage not yet
 * collected, the allocator's spare pages and a busy machine move the resident size by hundreds of MiB; they do not
 * move this.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** NODE_OPTIONS for a server that answers SIGUSR2 with its live memory on stderr. */
export const HEAP_PROBE_OPTIONS = `--import ${fileURLToPath(new URL('./heap-probe.mjs', import.meta.url))}`;

/** The server's live memory after a full collection, in bytes; `stderr` gives all it wrote so far. */
export async function liveBytes(child: ChildProcess, stderr: () => string): Promise<number> {
  const seen = stderr().split('heap-probe ').length;
  child.kill('SIGUSR2');
  for (;;) {
    const parts = stderr().split('heap-probe ');
    if (parts.length > seen) return Number.parseInt(parts[seen]!, 10);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The least-squares slope of `values` over their index: growth per round. */
export function slope(values: number[]): number {
  const n = values.length;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  values.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  return num / den;
}
