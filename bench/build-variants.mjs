// Builds what the cold-start benchmark compares dist/cli.js with, into bench/results/build/ (not shipped): the
// minimal one-tool SDK server bundled like ours (minified), so that bundling is not our only edge.
import { mkdir } from 'node:fs/promises';
import { build } from 'esbuild';
import { BUILD, ROOT } from './lib/results.mjs';

const REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

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

export async function buildAll() {
  await mkdir(BUILD, { recursive: true });
  return { minimal: await buildMinimal() };
}
