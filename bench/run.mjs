// `npm run bench`: builds (npm script), then runs every benchmark in turn and writes bench/results/<name>.json and
// bench/results/summary.md. Options: --quick (fewer runs, for a smoke test), --only name[,name].
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import * as coldStart from './cold-start.mjs';
import * as contextCost from './context-cost.mjs';
import * as httpLoad from './http-load.mjs';
import * as perCall from './per-call.mjs';
import { machine } from './lib/machine.mjs';
import { RESULTS, cliOptions, saveJson } from './lib/results.mjs';
import { httpAvailable } from './lib/servers.mjs';
import { table } from './lib/stats.mjs';

const opts = cliOptions();
const quick = opts.quick === 'true';
const only = opts.only ? String(opts.only).split(',') : undefined;
const started = performance.now();
const http = await httpAvailable();

const benches = [
  ['context-cost', () => contextCost.run()],
  ['cold-start', () => coldStart.run({ runs: quick ? 5 : 30 })],
  ['per-call', () => perCall.run({ calls: quick ? 60 : 300, warmup: quick ? 20 : 50, http })],
  ['http-load', () => httpLoad.run({ durationMs: quick ? 1000 : 3000, levels: [1, 8, 32, 128], http })],
];

const results = {};
for (const [name, bench] of benches) {
  if (only && !only.includes(name)) continue;
  const t = performance.now();
  process.stderr.write(`bench: ${name}…\n`);
  const result = await bench();
  await saveJson(result.name, result.json);
  results[name] = result;
  process.stderr.write(`bench: ${name} done in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
}

const m = machine();
const verdicts = targets(results);
const summary = [
  '# Benchmark summary',
  '',
  `${new Date().toISOString()} · ${m.nproc} CPUs (${m.cpu}) · ${m.memoryGiB} GiB · node ${m.node} · ${m.platform} · load average at the end ${m.loadavg.join(' ')}`,
  `${quick ? 'Quick run (--quick): few repetitions, indicative only. ' : ''}Total ${((performance.now() - started) / 1000).toFixed(0)} s.`,
  '',
  ...(verdicts.length ? ['## Targets', '', table(['target', 'measured', 'met'], verdicts), ''] : []),
  ...Object.values(results).flatMap((r) => [r.markdown, '']),
].join('\n');
await writeFile(`${RESULTS}summary.md`, summary);
console.log(summary);

function targets(r) {
  const rows = [];
  const cold = r['cold-start']?.json.targets;
  if (cold) {
    const by = Object.fromEntries(cold.map((t) => [t.name, t.ratioToFloor]));
    rows.push([
      'cold start below the minimal one-tool SDK server',
      `ours ${by.ours}× floor; minimal ${by['sdk-minimal']}× (bundled ${by['sdk-minimal-bundled']}×)`,
      by.ours < by['sdk-minimal'] ? (by.ours < by['sdk-minimal-bundled'] ? 'yes (both)' : 'unbundled only') : 'no',
    ]);
    rows.push(['cold start near 3× the floor', `${by.ours}×`, by.ours <= 3 ? 'yes' : 'no']);
  }
  const ctx = r['context-cost']?.json;
  if (ctx) {
    const over = ctx.operationsModelVisibleBytes - ctx.budgetBytes;
    rows.push([
      `model-visible tools/list of the ${ctx.operationTools} operation tools ≤ ${ctx.budgetBytes} B`,
      `${ctx.operationsModelVisibleBytes} bytes (all ${ctx.tools} tools: ${ctx.modelVisibleBytes})`,
      over <= 0 ? 'yes' : `no (+${over})`,
    ]);
  }
  const stdio = r['per-call']?.json.rows.find((x) => x.target.startsWith('stdio (raw'));
  if (stdio) rows.push(['per-call overhead over stdio ≤ 0.3 ms p50', `${stdio.overheadP50Ms} ms`, stdio.overheadP50Ms <= 0.3 ? 'yes' : 'no']);
  return rows;
}
