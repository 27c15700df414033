// Runs TypeScript of src/ from a script: bundles the entry into a temporary directory with Rolldown, as the build
// does, imports it, and removes the directory. The scripts that make files from the source and the benchmarks that
// time parts of it use this, so that they run the code as written without a build of their own.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';

/** The module `entry` (a path from the repository's root) bundled and imported; `use` gets it before clean-up. */
export async function withBundled(entry, use) {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bundled-'));
  try {
    const bundle = await rolldown({ input: { main: entry }, platform: 'node', logLevel: 'warn' });
    // .mjs: the temporary directory has no package.json that says the files are modules.
    await bundle.write({ dir, format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' });
    await bundle.close();
    return await use(await import(pathToFileURL(join(dir, 'main.mjs')).href));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
