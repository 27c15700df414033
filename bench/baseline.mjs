// Builds an earlier commit's server for the benchmarks to run beside today's (cold start and per call, in the same
// run): `node bench/baseline.mjs [REF]` (default 9f47c4b, the last build on the SDK v1, before both eras) prints the
// path of its dist/cli.js, built in bench/results/build/baseline-REF/ from a detached worktree that borrows this
// checkout's node_modules (the earlier source builds with today's dependencies; nothing is fetched).
import { execFileSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { BUILD, ROOT, isMain } from './lib/results.mjs';

export async function buildBaseline(ref = '9f47c4b') {
  const dir = `${BUILD}baseline-${ref}`;
  const cli = `${dir}/dist/cli.js`;
  if (existsSync(cli)) return cli;
  const git = (...args) => execFileSync('git', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  await rm(dir, { recursive: true, force: true });
  git('worktree', 'prune');
  git('worktree', 'add', '--detach', dir, ref);
  symlinkSync(`${ROOT}node_modules`, `${dir}/node_modules`);
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: 'inherit' });
  return cli;
}

if (isMain(import.meta.url)) console.log(await buildBaseline(process.argv[2]));
