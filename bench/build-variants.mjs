// Builds what the cold-start benchmark compares dist/cli.js with, into bench/results/build/ (not shipped): the
// minimal one-tool SDK server bundled like ours (Rolldown, minified, one file), so that bundling is not our only edge.
import { mkdir } from 'node:fs/promises';
import { rolldown } from 'rolldown';
import { BUNDLE_INPUT, BUNDLE_OUTPUT } from '../scripts/lib/bundling.mjs';
import { BUILD, ROOT } from './lib/results.mjs';

export async function buildMinimal() {
  const file = 'minimal-sdk-server.bundle.mjs';
  const bundle = await rolldown({ input: `${ROOT}bench/fixtures/minimal-sdk-server.mjs`, ...BUNDLE_INPUT });
  await bundle.write({ ...BUNDLE_OUTPUT, dir: BUILD, entryFileNames: file, format: 'esm' });
  await bundle.close();
  return `${BUILD}${file}`;
}

export async function buildAll() {
  await mkdir(BUILD, { recursive: true });
  return { minimal: await buildMinimal() };
}
