// Every file, or part of one, that is made from the source: `npm run generate` (scripts/generate.mjs) writes them,
// test/docs/generated.test.ts only compares. `read` gives a file's current text: the parts not generated are kept.
import { computeToolDefinitions } from '../../src/mcp/tool-definitions.js';
import { manifestJson } from './manifest.js';
import { envTable, httpEnvTable, replaceBlock, toolTable, translationNote } from './readme.js';
import { serverJson } from './server-json.js';

export interface GeneratedFile {
  path: string;
  content: string;
}

export function generatedFiles(read: (path: string) => string): GeneratedFile[] {
  const blocks: [string, () => string][] = [
    ['tools', toolTable],
    ['env', envTable],
    ['env-http', httpEnvTable],
    ['translation', translationNote],
  ];
  const readme = blocks.reduce((doc, [name, make]) => replaceBlock(doc, name, make()), read('README.md'));
  return [
    // Every tool's MCP definition: what the server lists (making the JSON Schemas at start-up would be its largest
    // piece of work), and, reviewed in diffs, the snapshot of every tool's schema.
    { path: 'src/generated/tool-definitions.json', content: `${JSON.stringify(computeToolDefinitions(), null, 2)}\n` },
    { path: 'README.md', content: readme },
    { path: 'manifest.json', content: manifestJson(read('manifest.json')) },
    { path: 'server.json', content: serverJson(read('server.json')) },
  ];
}
