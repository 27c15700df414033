// What the check of server.json against the MCP Registry's schema (scripts/check-server-json.mjs) and the tests of
// server.json (test/docs/server-json.test.ts) both read.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The ```json block of docs/publishing.md that shows an operator's `remotes` entry, parsed. */
export function remoteExample(root) {
  const page = readFileSync(resolve(root, 'docs', 'publishing.md'), 'utf8');
  const block = [...page.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((text) => text.includes('"remotes"'));
  if (!block) throw new Error('docs/publishing.md has no ```json block with a "remotes" entry');
  return JSON.parse(block);
}
