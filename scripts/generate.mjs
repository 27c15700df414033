// `npm run generate`: writes every file, or part of one, that is made from the source (scripts/generated/index.ts):
// src/generated/tool-definitions.json, the generated blocks of README.md and docs/*.md, manifest.json's settings
// and tools, and server.json's environment variables. The tests only compare (test/docs/generated.test.ts). The
// TypeScript sources are bundled to a temporary module first, as the build does (esbuild), and imported from there.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const dir = await mkdtemp(join(tmpdir(), 'svc-generate-'));
try {
  const outfile = join(dir, 'generated.mjs');
  await build({
    entryPoints: ['scripts/generated/index.ts'],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  const { generatedFiles } = await import(outfile);
  for (const { path, content } of generatedFiles((file) => readFileSync(file, 'utf8'))) {
    if ((await readFile(path, 'utf8')) === content) continue;
    await writeFile(path, content);
    console.log(`written: ${path}`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
