// `npm run generate`: writes every file, or part of one, that is made from the source (scripts/generated/index.ts):
// src/generated/tool-definitions.json, the generated blocks of README.md and docs/*.md, manifest.json's settings
// and tools, and server.json's environment variables. The tests only compare (test/docs/generated.test.ts). The
// TypeScript sources are bundled to a temporary module first, as the build does (Rolldown), and imported from there.
import { readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { withBundled } from './lib/import-bundled.mjs';

await withBundled('scripts/generated/index.ts', async ({ generatedFiles }) => {
  for (const { path, content } of generatedFiles((file) => readFileSync(file, 'utf8'))) {
    if ((await readFile(path, 'utf8')) === content) continue;
    await writeFile(path, content);
    console.log(`written: ${path}`);
  }
});
