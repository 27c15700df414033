// Cold start over stdio, in both protocol eras: spawn -> initialize -> tools/list (2025), and spawn -> tools/list
// carrying its version (2026-07-28, no initialize), for the floor (bare node with canned answers), a minimal one-tool
// server on the same SDK (unbundled and bundled) and ours (dist/cli.js); with --baseline FILE, an earlier build too
// (2025 only, if it serves no more). Rounds are interleaved and each round visits the targets in a random order, so
// that noise from other work on the machine hits every target alike.
//
// A warm cache for all: each target keeps its cache in a private directory of its own in each era, filled by the
// unmeasured warm-up start in that era: ours in the one it chooses itself (under XDG_CACHE_HOME: V8's code cache of the
// server and Node's compile cache of the rest), every other Node's compile cache through NODE_COMPILE_CACHE, which
// covers even the entry file. One per era, as a host has it: a host speaks one era, and the first start fills our code
// cache with the functions that era's first answers compiled (the other era's are compiled at each start, about a
// millisecond). A first start (after install, a new build or a reboot that emptied the cache) is a start with an empty
// directory.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { INITIALIZE, INITIALIZED, LineClient, TOOLS_LIST, modern } from './lib/jsonrpc-lines.mjs';
import { cpuTimeMs, stop } from './lib/proc.mjs';
import { CLI, ensureDistCopy } from './lib/servers.mjs';
import { buildAll } from './build-variants.mjs';
import { ROOT, cliOptions, isMain, saveJson } from './lib/results.mjs';
import { formatDifference, median, pairedDifference, round, shuffled, summary, table } from './lib/stats.mjs';

/** Whether this Node has a compile cache (22.1+). */
export const compileCache = 'enableCompileCache' in module;

export function defaultTargets(builds) {
  const targets = [
    { name: 'floor', what: 'bare node, canned answers', args: [`${ROOT}bench/fixtures/floor-server.mjs`] },
    {
      name: 'sdk-minimal',
      what: 'McpServer + 1 tool on the same SDK, from node_modules',
      args: [`${ROOT}bench/fixtures/minimal-sdk-server.mjs`],
    },
    { name: 'sdk-minimal-bundled', what: 'the same, bundled like ours (Rolldown, minified)', args: [builds.minimal] },
    { name: 'ours', what: 'dist/cli.js, the shipped build', args: [CLI], ownCache: true },
    {
      name: 'ours-first-start',
      what: 'the same, its cache directory empty: a first start',
      args: [CLI],
      ownCache: true,
      firstStart: true,
    },
  ];
  return targets;
}

/**
 * Gives each target a private cache directory per era, under one made for this run (mode 0700, by mkdtemp):
 * `inEra(era)` is the target with `env` for that era's directory and `fresh()`, which empties it before each start of a
 * first-start target; `env` alone is the 2025 era's. `done()` removes them all.
 */
function withCaches(targets) {
  const root = mkdtempSync(join(tmpdir(), 'svc-bench-cache-'));
  const made = targets.map((target) => {
    const inEra = (era) => {
      const dir = join(root, `${target.name}-${era}`);
      const cacheEnv = target.ownCache ? { XDG_CACHE_HOME: dir } : { NODE_COMPILE_CACHE: dir };
      const fresh = () => {
        if (target.firstStart) rmSync(dir, { recursive: true, force: true });
      };
      return { ...target, env: { ...target.env, ...cacheEnv }, fresh };
    };
    return { ...inEra('2025'), inEra };
  });
  return { targets: made, done: () => rmSync(root, { recursive: true, force: true }) };
}

/** One cold start: ms from spawn to the tools/list answer, and to the initialize answer (2025 era). */
export async function coldStart(target, era = '2025') {
  target.fresh?.();
  const started = performance.now();
  const child = spawn(process.execPath, target.args, {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...target.env },
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const client = new LineClient(child);
  try {
    let initMs = 0;
    if (era === '2025') {
      const init = await client.request(INITIALIZE);
      initMs = performance.now() - started;
      if (init.message.error) throw new Error(`initialize failed: ${JSON.stringify(init.message.error)}`);
      client.send(INITIALIZED);
    }
    const list = await client.request(era === '2025' ? TOOLS_LIST : modern(TOOLS_LIST));
    const listMs = performance.now() - started;
    const cpuMs = cpuTimeMs(child.pid);
    if (!list.message.result?.tools?.length)
      throw new Error(`tools/list failed: ${JSON.stringify(list.message).slice(0, 300)}`);
    return { initMs, listMs, cpuMs, tools: list.message.result.tools.length };
  } catch (error) {
    throw new Error(`${target.name}: ${error.message}\n${stderr}`, { cause: error });
  } finally {
    await stop(child);
  }
}

/** The first tools/call after start (against the sandbox): what loading undici on first use moves there. */
export async function firstCall(target) {
  const child = spawn(process.execPath, [...target.args, '--sandbox'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...target.env },
  });
  child.stderr.resume();
  const client = new LineClient(child);
  try {
    await client.request(INITIALIZE);
    client.send(INITIALIZED);
    await client.request(TOOLS_LIST);
    const times = [];
    for (let id = 3; id < 5; id++) {
      const t = performance.now();
      const { message } = await client.request({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'search_list_tokenizer_languages', arguments: {} },
      });
      times.push(performance.now() - t);
      if (message.error || message.result?.isError)
        throw new Error(`${target.name}: ${JSON.stringify(message).slice(0, 300)}`);
    }
    return times;
  } finally {
    await stop(child);
  }
}

export async function run({ runs = 30, targets, firstCallRuns = 10, baseline } = {}) {
  await ensureDistCopy();
  if (!targets) targets = defaultTargets(await buildAll());
  if (baseline) {
    // An earlier build keeps its caches where ours does (XDG_CACHE_HOME), or under the temporary directory before
    // that: its own ones, as for the others, never the home directory's.
    const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-baseline-'));
    const what = `${baseline} (an earlier build)`;
    const env = { TMPDIR: tmp };
    targets = [...targets, { name: 'baseline', what, args: [baseline], env, ownCache: true, mayLackEras: true }];
  }
  const caches = withCaches(targets);
  targets = caches.targets;
  try {
    return await measure({ runs, targets, firstCallRuns });
  } finally {
    caches.done();
    for (const t of targets) if (t.env?.TMPDIR) rmSync(t.env.TMPDIR, { recursive: true, force: true });
  }
}

async function measure({ runs, targets, firstCallRuns }) {
  // Each target in each era it serves; every pair is a row of its own.
  let pairs = targets.flatMap((t) =>
    (t.eras ?? ['2025', '2026']).map((era) => ({ ...t.inEra(era), era, key: `${t.name} ${era}` })),
  );
  // Warms the file system cache and fills the compile caches; not counted. An earlier build that fails in an era
  // does not serve it.
  const served = [];
  for (const p of pairs) {
    try {
      await coldStart(p, p.era);
      served.push(p);
    } catch (error) {
      if (!p.mayLackEras) throw error;
    }
  }
  pairs = served;
  const times = Object.fromEntries(pairs.map((p) => [p.key, []]));
  const init = Object.fromEntries(pairs.map((p) => [p.key, []]));
  const cpu = Object.fromEntries(pairs.map((p) => [p.key, []]));
  for (let round = 0; round < runs; round++) {
    for (const p of shuffled(pairs)) {
      const r = await coldStart(p, p.era);
      times[p.key].push(r.listMs);
      init[p.key].push(r.initMs);
      cpu[p.key].push(r.cpuMs);
    }
  }
  const rows = pairs.map((p) => ({
    name: p.name,
    era: p.era,
    what: p.what,
    toolsListMs: summary(times[p.key]),
    initializeMs: summary(init[p.key]),
    // Each era against the floor in the same era (the floor answers tools/list without initialize in 2026).
    ratioToFloor: round(median(times[p.key]) / median(times[`floor ${p.era}`]), 2),
    cpuMs: summary(cpu[p.key]),
  }));
  const floor = median(times['floor 2025']);
  // Ours against the bundled minimal server, round by round (both ran in each round, in random order), and as a
  // ratio of the medians: the goal is ours within 0.8x of it, each with its cache warm. On the clock, and in
  // CPU time, which other work on a shared machine does not stretch (on a busy one, the clock measures the load).
  const vsMinimal = {};
  for (const era of ['2025', '2026']) {
    const minimal = `sdk-minimal-bundled ${era}`;
    for (const name of ['ours', 'ours-first-start', 'baseline']) {
      const own = `${name} ${era}`;
      if (times[minimal] && times[own])
        vsMinimal[own] = {
          ...pairedDifference(times[own], times[minimal]),
          ratio: round(median(times[own]) / median(times[minimal]), 3),
          cpuRatio: round(median(cpu[own]) / median(cpu[minimal]), 3),
        };
    }
  }
  // First call after start: undici is loaded on the first upstream call, or in the idle time 300 ms after start.
  const firstCallTargets = targets.filter((t) => t.name === 'ours');
  const first = Object.fromEntries(firstCallTargets.map((t) => [t.name, { first: [], second: [] }]));
  for (let i = 0; i < (firstCallTargets.length ? firstCallRuns : 0); i++) {
    for (const t of shuffled(firstCallTargets)) {
      const [a, b] = await firstCall(t);
      first[t.name].first.push(a);
      first[t.name].second.push(b);
    }
  }
  const firstCalls = Object.entries(first).map(([name, v]) => ({
    name,
    firstMs: summary(v.first),
    secondMs: summary(v.second),
  }));
  const json = {
    runs,
    node: process.version,
    compileCache,
    floorMs: round(floor),
    targets: rows,
    vsMinimal,
    firstCalls,
    raw: times,
  };
  const markdown = [
    `### Cold start over stdio (2025: spawn → initialize → tools/list; 2026-07-28: spawn → tools/list), median of ${runs} interleaved runs`,
    '',
    'CPU ms: CPU time the process used until that answer, all its threads (Linux), which the load does not stretch.',
    '',
    compileCache
      ? `Node ${process.version}: each target with its own compile cache, warm (a first start: empty).`
      : `Node ${process.version}: no compile cache.`,
    '',
    table(
      ['target', 'era', 'what', 'median ms', 'p90 ms', '× floor (same era)', 'CPU ms (median)'],
      rows.map((r) => [
        r.name,
        r.era,
        r.what,
        r.toolsListMs.p50.toFixed(1),
        r.toolsListMs.p90.toFixed(1),
        r.ratioToFloor.toFixed(2),
        r.cpuMs.p50.toFixed(1),
      ]),
    ),
    ...(Object.keys(vsMinimal).length
      ? [
          '',
          'Against the bundled minimal server: ratio of the medians, and the difference round by round (median of the ' +
            'differences, 95% bootstrap interval): ' +
            Object.entries(vsMinimal)
              .map(
                ([key, d]) => `${key} ${d.ratio.toFixed(2)}× (CPU ${d.cpuRatio.toFixed(2)}×), ${formatDifference(d)}`,
              )
              .join('; ') +
            '.',
        ]
      : []),
    ...(firstCalls.length
      ? [
          '',
          `First and second tools/call after start (\`--sandbox\`, median of ${firstCallRuns}): ` +
            firstCalls
              .map((f) => `${f.name} ${f.firstMs.p50.toFixed(1)} ms then ${f.secondMs.p50.toFixed(1)} ms`)
              .join('; ') +
            '.',
        ]
      : []),
  ].join('\n');
  return { name: 'cold-start', json, markdown };
}

if (isMain(import.meta.url)) {
  const opts = cliOptions();
  let targets;
  if (opts.target) {
    // --target name=file.js [--target ...]: compare extra builds against the floor (for experiments)
    targets = [
      defaultTargets({})[0],
      ...[].concat(opts.target).map((spec) => {
        const [name, ...args] = spec.split(/[=\s]/);
        return { name, what: args.join(' '), args };
      }),
    ];
  }
  const result = await run({ runs: Number(opts.runs ?? 30), targets, baseline: opts.baseline });
  if (!opts.target) await saveJson(result.name, result.json);
  console.log(result.markdown);
}
