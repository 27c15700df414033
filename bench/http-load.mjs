// HTTP throughput and latency: N concurrent clients, each calling a tool in a loop for a few seconds, against
// `dist/cli.js --http --sandbox`, with sessions and stateless; the server's resident memory sampled from /proc.
// Then the memory an open session costs: RSS while opening sessions in batches, slope by least squares.
// The load generator runs on the same machine (and cores) as the server: the figures are a floor of capacity.
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import { RawHttpSession } from './lib/mcp-http-raw.mjs';
import { memoryOf, stop } from './lib/proc.mjs';
import { cliOptions, isMain, saveJson } from './lib/results.mjs';
import { httpAvailable, startCli } from './lib/servers.mjs';
import { round, summary, table } from './lib/stats.mjs';
import { TOOL } from './per-call.mjs';

/** How long a client waits after a [busy] refusal before its next call. */
const BUSY_PAUSE_MS = 100;

function sampler(pid, everyMs = 100) {
  let maxRss = 0;
  const timer = setInterval(() => (maxRss = Math.max(maxRss, memoryOf(pid).rssKiB || 0)), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(maxRss, memoryOf(pid).rssKiB || 0);
    },
  };
}

async function openSessions(url, dispatcher, n) {
  const sessions = [];
  for (let i = 0; i < n; i += 16) {
    const batch = Array.from({ length: Math.min(16, n - i) }, () => new RawHttpSession(url, dispatcher).open());
    sessions.push(...(await Promise.all(batch)));
  }
  return sessions;
}

async function step(server, concurrency, durationMs) {
  const dispatcher = new Agent({ connections: concurrency, pipelining: 1 });
  const sessions = await openSessions(server.mcpUrl, dispatcher, concurrency);
  for (const s of sessions) await s.call(TOOL); // warm
  const latencies = [];
  let errors = 0;
  /** Errors by kind: the [code] of a tool error, or the HTTP status. */
  const errorKinds = {};
  const memory = sampler(server.child.pid);
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    sessions.map(async (session) => {
      while (performance.now() < deadline) {
        const t = performance.now();
        try {
          await session.call(TOOL);
          latencies.push(performance.now() - t);
        } catch (error) {
          errors++;
          const kind = /failed \[(\w+)\]/.exec(error.message)?.[1] ?? /^HTTP \d+/.exec(error.message)?.[0] ?? 'other';
          errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
          // A [busy] refusal asks to try again shortly: a client that retried at once would only measure refusals.
          if (kind === 'busy') await sleep(BUSY_PAUSE_MS);
        }
      }
    }),
  );
  const elapsed = performance.now() - started;
  const peakRssKiB = memory.stop();
  await Promise.all(sessions.map((s) => s.close().catch(() => {})));
  await dispatcher.close();
  const s = summary(latencies);
  return {
    concurrency,
    calls: latencies.length,
    errors,
    errorKinds,
    callsPerSecond: round((latencies.length / elapsed) * 1000, 0),
    p50Ms: s.p50,
    p99Ms: s.p99,
    peakRssMiB: round(peakRssKiB / 1024, 1),
    vmHwmMiB: round(memoryOf(server.child.pid).hwmKiB / 1024, 1),
  };
}

/** RSS after opening sessions in batches (each: initialize + tools/list), with the least-squares slope. */
async function sessionMemory({ batches = 8, batchSize = 100 } = {}) {
  const server = await startCli(['--http', '--sandbox', '--port', '0']);
  const dispatcher = new Agent({ connections: 16 });
  const open = [];
  const points = [];
  try {
    const warm = await openSessions(server.mcpUrl, dispatcher, 4);
    for (const s of warm) await s.call(TOOL);
    open.push(...warm);
    await sleep(300);
    points.push({ sessions: open.length, rssKiB: memoryOf(server.child.pid).rssKiB });
    for (let b = 0; b < batches; b++) {
      const batch = await openSessions(server.mcpUrl, dispatcher, batchSize);
      await Promise.all(batch.map((s) => s.post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })));
      open.push(...batch);
      await sleep(300);
      points.push({ sessions: open.length, rssKiB: memoryOf(server.child.pid).rssKiB });
    }
  } finally {
    await Promise.all(open.map((s) => s.close().catch(() => {})));
    await dispatcher.close();
    await stop(server.child);
  }
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.sessions, 0) / n;
  const my = points.reduce((a, p) => a + p.rssKiB, 0) / n;
  const slope =
    points.reduce((a, p) => a + (p.sessions - mx) * (p.rssKiB - my), 0) /
    points.reduce((a, p) => a + (p.sessions - mx) ** 2, 0);
  return { kibPerSession: round(slope, 1), points };
}

export async function run({ levels = [1, 8, 32, 128], durationMs = 3000, http } = {}) {
  http ??= await httpAvailable();
  if (!http) {
    return {
      name: 'http-load',
      json: { skipped: '--http did not start' },
      markdown: '### HTTP throughput\n\n_Skipped: `node dist/cli.js --http` did not start._',
    };
  }
  const modes = [];
  for (const stateless of [false, true]) {
    const server = await startCli(['--http', '--sandbox', '--port', '0', ...(stateless ? ['--stateless'] : [])]);
    const idleRssMiB = round(memoryOf(server.child.pid).rssKiB / 1024, 1);
    const steps = [];
    try {
      for (const c of levels) steps.push(await step(server, c, durationMs));
    } finally {
      await stop(server.child);
    }
    modes.push({ mode: stateless ? 'stateless' : 'session', idleRssMiB, steps });
  }
  const memory = await sessionMemory();
  const json = { tool: TOOL, durationMs, modes, sessionMemory: memory };
  const rows = modes.flatMap((m) =>
    m.steps.map((s) => [
      m.mode,
      s.concurrency,
      s.callsPerSecond,
      s.p50Ms.toFixed(2),
      s.p99Ms.toFixed(2),
      s.peakRssMiB.toFixed(1),
      errorCell(s),
    ]),
  );
  const markdown = [
    `### HTTP throughput and latency (\`${TOOL}\` through the sandbox, ${durationMs / 1000} s per step, load generator on the same machine)`,
    '',
    table(['mode', 'concurrent clients', 'calls/s', 'p50 ms', 'p99 ms', 'peak RSS MiB', 'errors'], rows),
    '',
    `Idle RSS after start: ${modes.map((m) => `${m.mode} ${m.idleRssMiB} MiB`).join(', ')}.`,
    `Memory per open session (initialize + tools/list, ${memory.points.at(-1).sessions} sessions): ≈ ${memory.kibPerSession} KiB ` +
      `(RSS ${memory.points.map((p) => `${p.sessions}: ${round(p.rssKiB / 1024, 1)} MiB`).join(', ')}).`,
  ].join('\n');
  return { name: 'http-load', json, markdown };
}

/** "0", or the count with its kinds: "120 (busy 120)". */
function errorCell(step) {
  if (step.errors === 0) return '0';
  return `${step.errors} (${Object.entries(step.errorKinds)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ')})`;
}

if (isMain(import.meta.url)) {
  const opts = cliOptions();
  const result = await run({ durationMs: Number(opts.duration ?? 3000) });
  await saveJson(result.name, result.json);
  console.log(result.markdown);
}
