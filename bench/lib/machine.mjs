import { readFileSync } from 'node:fs';
import os from 'node:os';

/** What the figures were measured on: they mean little without it. */
export function machine() {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) cpu = line.split(':')[1].trim();
  } catch {
    // not Linux: keep os.cpus()
  }
  return {
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    cpu,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadavg: os.loadavg().map((x) => Number(x.toFixed(2))),
  };
}
