// Cold start over stdio, in both protocol eras: spawn -> initialize -> tools/list (2025), and spawn -> tools/list
// carrying its version (2026-07-28, no initialize), for the floor (bare node with canned answers), a minimal one-tool
// server on the same SDK (unbundled and bundled) and ours (dist/cli.js); with --baseline FILE, an earlier build too
// (2025 only, if it serves no more). Rounds are interleaved and each round visits the targets in a random order, so
// that noise from other work on the machine hits every target alike.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { INITIALIZE, INITIALIZED, LineClient, TOOLS_LIST, modern } from './lib/jsonrpc-lines.mjs';
import { stop } from './lib/proc.mjs';
import { CLI, ensureDistCopy } from './lib/servers.mjs';
import { buildAll } from './build-variants.mjs';
import { ROOT, cliOptions, isMain, saveJson } from './lib/results.mjs';
import { formatDifference, median, pairedDifference, round, shuffled, summary, table } from './lib/stats.mjs';

export function defaultTargets(builds) {
  const targets = [
    { name: 'floor', what: 'bare node, canned answers', args: [`${ROOT}bench/fixtures/floor-server.mjs`] },
    {
      name: 'sdk-minimal',
      what: 'McpServer + 1 tool on the same SDK, from node_modules',
      args: [`${ROOT}bench/fixtures/minimal-sdk-server.mjs`],
    },
    { name: 'sdk-minimal-bundled', what: 'the same, bundled like ours (Rolldown, minified)', args: [builds.minimal] },
    { name: 'ours', what: 'dist/cli.js, the shipped build', args: [CLI] },
    // dist/cli.js runs the server through V8's code cache (src/code-cache.ts), made by the warm-up run: this is a
    // start without it, as the first after install or a reboot.
    {
      name: 'ours-first-start',
      what: 'the same, no code cache (NODE_DISABLE_COMPILE_CACHE=1): a first start',
      args: [CLI],
      env: { NODE_DISABLE_COMPILE_CACHE: '1' },
    },
  ];
  return targets;
}

/** One cold start: ms from spawn to the tools/list answer, and to the initialize answer (2025 era). */
export async function coldStart(target, era = '2025') {
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
    if (!list.message.result?.tools?.length)
      throw new Error(`tools/list failed: ${JSON.stringify(list.message).slice(0, 300)}`);
    return { initMs, listMs, tools: list.message.result.tools.length };
  } catch (error) {
    throw new Error(`${target.name}: ${error.message}\n${stderr}`);
  } finally {
    await stop(child);
  }
}

/** The first tools/call after start (against the sandbox): what loading undici on first use moves there. */
export async function firstCall(target) {
  const child = spawn(process.execPath, [...target.args, '--sandbox'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
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
  let builds = {};
  await ensureDistCopy();
  if (!targets) {
    builds = await buildAll();
    targets = defaultTargets(builds);
  }
  if (baseline)
    targets = [
      ...targets,
      { name: 'baseline', what: `${baseline} (an earlier build)`, args: [baseline], eras: ['2025'] },
    ];
  // Each target in each era it serves; every pair is a row of its own.
  const pairs = targets.flatMap((t) =>
    (t.eras ?? ['2025', '2026']).map((era) => ({ ...t, era, key: `${t.name} ${era}` })),
  );
  for (const p of pairs) await coldStart(p, p.era); // warm the file system cache; not counted
  const times = Object.fromEntries(pairs.map((p) => [p.key, []]));
  const init = Object.fromEntries(pairs.map((p) => [p.key, []]));
  for (let round = 0; round < runs; round++) {
    for (const p of shuffled(pairs)) {
      const r = await coldStart(p, p.era);
      times[p.key].push(r.listMs);
      init[p.key].push(r.initMs);
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
  }));
  const floor = median(times['floor 2025']);
  // Ours against the bundled minimal server, round by round (both ran in each round, in random order).
  const vsMinimal = {};
  for (const era of ['2025', '2026']) {
    const minimal = times[`sdk-minimal-bundled ${era}`];
    for (const name of ['ours', 'ours-first-start']) {
      if (minimal && times[`${name} ${era}`])
        vsMinimal[`${name} ${era}`] = pairedDifference(times[`${name} ${era}`], minimal);
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
  const json = { runs, node: process.version, floorMs: round(floor), targets: rows, vsMinimal, firstCalls, raw: times };
  const markdown = [
    `### Cold start over stdio (2025: spawn → initialize → tools/list; 2026-07-28: spawn → tools/list), median of ${runs} interleaved runs`,
    '',
    table(
      ['target', 'era', 'what', 'median ms', 'p90 ms', '× floor (same era)'],
      rows.map((r) => [
        r.name,
        r.era,
        r.what,
        r.toolsListMs.p50.toFixed(1),
        r.toolsListMs.p90.toFixed(1),
        r.ratioToFloor.toFixed(2),
      ]),
    ),
    ...(Object.keys(vsMinimal).length
      ? [
          '',
          'Minus the bundled minimal server, round by round (median of the differences, 95% bootstrap interval): ' +
            Object.entries(vsMinimal)
              .map(([key, d]) => `${key} ${formatDifference(d)}`)
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
