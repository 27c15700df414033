// `npm run bench`: builds (npm script), then runs every benchmark in turn and writes bench/results/<name>.json and
// bench/results/summary.md. Options: --quick (fewer runs, for a smoke test), --only name[,name], --baseline FILE (an
// earlier build's cli.js, run beside ours in cold start and per call: `node bench/baseline.mjs REF` makes one).
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import * as answers from './answers.mjs';
import * as burst from './burst.mjs';
import * as coldStart from './cold-start.mjs';
import * as contextCost from './context-cost.mjs';
import * as httpLoad from './http-load.mjs';
import * as perCall from './per-call.mjs';
import * as perCallModes from './per-call-modes.mjs';
import * as redaction from './redaction.mjs';
import * as serverConstruction from './server-construction.mjs';
import { machine } from './lib/machine.mjs';
import { RESULTS, cliOptions, saveJson } from './lib/results.mjs';
import { httpAvailable } from './lib/servers.mjs';
import { formatDifference, table } from './lib/stats.mjs';

const opts = cliOptions();
const quick = opts.quick === 'true';
const only = opts.only ? String(opts.only).split(',') : undefined;
const started = performance.now();
const http = await httpAvailable();

const benches = [
  ['context-cost', () => contextCost.run()],
  ['cold-start', () => coldStart.run({ runs: quick ? 5 : 30, baseline: opts.baseline })],
  ['per-call', () => perCall.run({ calls: quick ? 60 : 1000, warmup: quick ? 20 : 50, http, baseline: opts.baseline })],
  ['per-call-modes', () => perCallModes.run({ calls: quick ? 60 : 300, warmup: quick ? 20 : 50, http })],
  ['http-load', () => httpLoad.run({ durationMs: quick ? 1000 : 3000, levels: [1, 8, 32, 128], http })],
  ['burst', () => burst.run({ http })],
  ['server-construction', () => serverConstruction.run()],
  ['answers', () => answers.run({ runs: quick ? 2 : 5, http })],
  ['redaction', () => redaction.run({ runs: quick ? 3 : 9 })],
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
  const cold = r['cold-start']?.json;
  if (cold) {
    for (const era of ['2025', '2026']) {
      const by = Object.fromEntries(cold.targets.filter((t) => t.era === era).map((t) => [t.name, t.ratioToFloor]));
      // The goals of issue 35, each with its compile cache warm: ours within 0.8x, a first start (empty cache) within
      // 1.2x. On a machine too busy for the clock to tell (the load average in the summary), the CPU time says what
      // the clock would on an idle one.
      const vs = cold.vsMinimal[`ours ${era}`];
      const first = cold.vsMinimal[`ours-first-start ${era}`];
      const within = (ratio, bound) => (ratio <= bound ? 'yes' : 'no');
      rows.push([
        `cold start (${era}) within 0.8× of the bundled minimal v2 SDK server, the same compile cache`,
        `ours ${vs.ratio}× minimal on the clock (ours − minimal ${formatDifference(vs)}), ${vs.cpuRatio}× in CPU time`,
        `${within(vs.ratio, 0.8)} (clock), ${within(vs.cpuRatio, 0.8)} (CPU)`,
      ]);
      rows.push([
        `first start (${era}), its cache empty, within 1.2× of the minimal server's warm start`,
        `${first.ratio}× on the clock, ${first.cpuRatio}× in CPU time`,
        `${within(first.ratio, 1.2)} (clock), ${within(first.cpuRatio, 1.2)} (CPU)`,
      ]);
      rows.push([`cold start (${era}) ≤ 2.0× the floor (goal)`, `${by.ours}×`, by.ours <= 2 ? 'yes' : 'no']);
    }
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
  const calls = r['per-call']?.json.rows ?? [];
  const ours = calls.find((x) => x.target === 'stdio (raw JSON-RPC, 2025)');
  const base = calls.find((x) => x.target === 'baseline: stdio (raw JSON-RPC, 2025)');
  if (ours && base) {
    const delta = Math.round((ours.overheadP50Ms - base.overheadP50Ms) * 100) / 100;
    rows.push([
      'per-call overhead over stdio within 0.1 ms of the baseline build',
      `${ours.overheadP50Ms} ms vs ${base.overheadP50Ms} ms (${delta >= 0 ? '+' : ''}${delta})`,
      delta <= 0.1 ? 'yes' : 'no',
    ]);
  }
  const redacted = r.redaction?.json;
  const large = redacted?.measured.find((m) => m.answer === 'tiny products (E7)');
  if (large) {
    rows.push([
      `redaction of a 4 MiB answer within ${redacted.targetRatio}× of the redactor before every spelling, same run`,
      `${large.ratio}× (${large.afterMs} ms against ${large.beforeMs} ms, medians)`,
      large.ratio <= redacted.targetRatio ? 'yes' : 'no',
    ]);
  }
  return rows;
}
