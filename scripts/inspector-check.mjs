#!/usr/bin/env node
// The official MCP Inspector's CLI (it needs Node 22.19 or later: run with the Node 22 of scripts/nodes.mjs) against
// `dist/cli.js --sandbox` over stdio: lists the tools, calls one, reads a resource and gets a prompt, and checks each
// answer. Fetched by npx from the npm registry at the version below (not a dev dependency: it does not run on Node 20).
// Usage: node scripts/inspector-check.mjs     (exit 1 on any failure)
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeBinary } from './nodes.mjs';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const node22 = nodeBinary(22);
const env = {
  ...process.env,
  // npx and the Inspector run on Node 22; the server it starts runs on the same.
  PATH: `${dirname(node22)}:${process.env.PATH}`,
  MCP_CATALOG_PATH: join(mkdtempSync(join(tmpdir(), 'inspector-')), 'mcp.json'),
};

const checks = [
  ['tools/list', [], (out) => out.tools?.length === 16 && out.tools[0].name === 'streaming_list_config_groups'],
  [
    'tools/call',
    ['--tool-name', 'recommendation_get_default_schema', '--tool-arg', 'datasetType=user'],
    (out) => out.structuredContent?.datasetType === 'user' && !out.isError,
  ],
  [
    'resources/read',
    ['--uri', 'svc://search/tokenizer-languages'],
    (out) => out.contents?.[0]?.text?.includes('korean'),
  ],
  [
    'prompts/get',
    ['--prompt-name', 'translate_and_summarize', '--prompt-args', 'text=hello', 'target=ko'],
    (out) => out.messages?.length > 0,
  ],
];

let failed = 0;
for (const [method, args, ok] of checks) {
  const run = spawnSync(
    'npx',
    ['-y', INSPECTOR, '--cli', '--method', method, ...args, '--', node22, join(ROOT, 'dist', 'cli.js'), '--sandbox'],
    {
      encoding: 'utf8',
      env,
      timeout: 120_000,
    },
  );
  let out;
  try {
    out = JSON.parse(run.stdout);
  } catch {
    out = undefined;
  }
  const passed = run.status === 0 && out !== undefined && ok(out);
  if (!passed) failed += 1;
  process.stdout.write(`${passed ? 'pass' : 'FAIL'}  inspector ${method}\n`);
  if (!passed) process.stdout.write(`${run.stdout.slice(0, 2000)}\n${run.stderr.slice(0, 2000)}\n`);
}
process.stdout.write(`inspector: ${checks.length - failed} of ${checks.length} checks passed\n`);
process.exit(failed ? 1 : 0);
