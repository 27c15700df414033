/**
 * The files made from the source are what it makes now: `npm run generate` (scripts/generate.mjs) writes them, and
 * this test only compares. src/generated/tool-definitions.json is also the snapshot of every tool's schema: a
 * change of one shows in its diff.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../../scripts/generated/index.js';

const read = (path: string) => readFileSync(path, 'utf8');
const files = generatedFiles(read);

describe('generated files', () => {
  it('are the tool definitions, the README, the docs pages with generated blocks, manifest.json and server.json', () => {
    expect(files.map((f) => f.path)).toEqual([
      'src/generated/tool-definitions.json',
      'README.md',
      'docs/http.md',
      'docs/tools.md',
      'docs/profiles.md',
      'manifest.json',
      'server.json',
    ]);
  });

  it.each(files.map((f) => [f.path, f.content] as const))(
    '%s is what the source makes (else: npm run generate)',
    (path, content) => {
      expect(read(path), `${path} drifted: run \`npm run generate\``).toBe(content);
    },
  );
});
