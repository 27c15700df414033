import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { machine } from './machine.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RESULTS = fileURLToPath(new URL('../results/', import.meta.url));
/** What the benchmarks build or copy for themselves (not shipped). */
export const BUILD = `${RESULTS}build/`;

/** Writes bench/results/<name>.json with the machine and the time of the run. */
export async function saveJson(name, data) {
  await mkdir(RESULTS, { recursive: true });
  const file = `${RESULTS}${name}.json`;
  await writeFile(
    file,
    `${JSON.stringify({ name, date: new Date().toISOString(), machine: machine(), ...data }, null, 2)}\n`,
  );
  return file;
}

/** True when the module is the script node was started with (so each bench also runs on its own). */
export const isMain = (url) => process.argv[1] && fileURLToPath(url) === process.argv[1];

/** `--name value` and `--name=value` options of a bench script; repeated names collect into arrays. */
export function cliOptions(argv = process.argv.slice(2)) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) continue;
    let [key, value] = arg.slice(2).split(/=(.*)/s);
    if (value === undefined) value = argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[++i] : 'true';
    out[key] = key in out ? [].concat(out[key], value) : value;
  }
  return out;
}
