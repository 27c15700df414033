// Builds what the cold-start benchmark compares dist/cli.js with, into bench/results/build/ (not shipped):
// - minimal-sdk-server.mjs bundled like ours (minified), so that bundling is not our only edge;
// - "before": src/cli.ts bundled as scripts/build.mjs did before the start-up work, then one change at a time;
// - a V8 start-up snapshot of the server (node --build-snapshot), to see how close to the floor start-up can get.
import { execFileSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { build } from 'esbuild';
import { STARTUP_PLUGINS, englishZodLocales, lazyUndici, precomputedToolDefinitions, withoutAjv } from '../scripts/build-plugins.mjs';
import { BUILD, ROOT } from './lib/results.mjs';
const REQUIRE_BANNER = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

export async function buildMinimal() {
  const outfile = `${BUILD}minimal-sdk-server.bundle.mjs`;
  await build({
    entryPoints: [`${ROOT}bench/fixtures/minimal-sdk-server.mjs`],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    banner: { js: REQUIRE_BANNER },
    logLevel: 'error',
  });
  return outfile;
}

/**
 * Our server bundled with some of the start-up work: `before` is the bundle as scripts/build.mjs first made it
 * (esbuild defaults, everything loaded at start); the steps add one change each, in the order they were made, so
 * that each one's effect is measured in the same run. The last step is what scripts/build.mjs ships.
 */
export const STEPS = [
  { name: 'ours-before', what: 'our bundle as first built: no minify, everything loaded at start', minify: false, plugins: [] },
  { name: 'ours+minify', what: '+ minified', minify: true, plugins: [] },
  { name: 'ours+lazy-undici', what: '+ undici loaded on the first upstream call', minify: true, plugins: [lazyUndici] },
  { name: 'ours-no-ajv', what: '+ Ajv left out (only elicitation, never sent, uses it)', minify: true, plugins: [lazyUndici, withoutAjv] },
  { name: 'ours+en-locales', what: '+ English-only zod locales', minify: true, plugins: [lazyUndici, withoutAjv, englishZodLocales] },
];

export async function buildStep(step) {
  const outdir = `${BUILD}${step.name}/`;
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: [`${ROOT}src/cli.ts`],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: step.minify,
    plugins: step.plugins,
    chunkNames: 'chunks/[name]-[hash]',
    banner: { js: REQUIRE_BANNER },
    logLevel: 'error',
  });
  return `${outdir}cli.js`;
}

/**
 * A V8 start-up snapshot: the server bundled as one CommonJS script (what --build-snapshot accepts), run once by
 * `node --build-snapshot`, its heap saved after every module has been evaluated. Starting from it skips loading,
 * compiling and evaluating modules. src/cli.ts defers main() to the snapshot's deserialisation.
 * Not shipped: the blob only works with the exact node binary that built it (a user's node would refuse it),
 * weighs several MB, and the client would have to start `node --snapshot-blob <file>` (see BENCHMARKS.md).
 */
export async function buildSnapshot() {
  const script = `${BUILD}snapshot/cli.cjs`;
  const blob = `${BUILD}snapshot/snapshot.blob`;
  await mkdir(`${BUILD}snapshot`, { recursive: true });
  await build({
    entryPoints: [`${ROOT}src/cli.ts`],
    outfile: script,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    plugins: [...STARTUP_PLUGINS, await precomputedToolDefinitions()],
    logLevel: 'error',
  });
  execFileSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', script], { cwd: BUILD, stdio: ['ignore', 'ignore', 'pipe'] });
  return blob;
}

export async function buildAll() {
  await mkdir(BUILD, { recursive: true });
  const out = { minimal: await buildMinimal(), steps: [] };
  for (const step of STEPS) out.steps.push({ ...step, file: await buildStep(step) });
  try {
    out.snapshot = await buildSnapshot();
  } catch (error) {
    out.snapshotError = String(error.stderr ?? error.message).split('\n').slice(0, 6).join('\n');
  }
  return out;
}
