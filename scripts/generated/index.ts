// Every file, or part of one, that is made from the source: `npm run generate` (scripts/generate.mjs) writes them,
// test/docs/generated.test.ts only compares. `read` gives a file's current text: the parts not generated are kept.
import { computeToolDefinitions } from '../../src/mcp/tool-definitions.js';
import {
  envTable,
  httpEnvTable,
  httpFlagTable,
  profileVariablesTable,
  replaceBlock,
  toolTable,
  translationNote,
} from './doc-blocks.js';
import { linksFrom } from './links.js';
import { manifestJson } from './manifest.js';
import { serverJson } from './server-json.js';

export interface GeneratedFile {
  path: string;
  content: string;
}

/** The Markdown files with generated blocks, and which blocks each holds. */
export const DOCUMENTS: readonly (readonly [
  path: string,
  blocks: readonly (readonly [name: string, make: () => string])[],
])[] = [
  [
    'README.md',
    [
      ['tools', toolTable],
      ['env', envTable],
    ],
  ],
  [
    'docs/http.md',
    [
      ['flags-http', httpFlagTable],
      ['env-http', httpEnvTable],
    ],
  ],
  ['docs/tools.md', [['translation', translationNote]]],
  ['docs/profiles.md', [['profile-variables', profileVariablesTable]]],
];

export function generatedFiles(read: (path: string) => string): GeneratedFile[] {
  const documents = DOCUMENTS.map(([path, blocks]) => ({
    path,
    content: blocks.reduce((doc, [name, make]) => replaceBlock(doc, name, linksFrom(path, make())), read(path)),
  }));
  return [
    // Every tool's MCP definition: what the server lists (making the JSON Schemas at start-up would be its largest
    // piece of work), and, reviewed in diffs, the snapshot of every tool's schema.
    { path: 'src/generated/tool-definitions.json', content: `${JSON.stringify(computeToolDefinitions(), null, 2)}\n` },
    ...documents,
    { path: 'manifest.json', content: manifestJson(read('manifest.json')) },
    { path: 'server.json', content: serverJson(read('server.json')) },
  ];
}
