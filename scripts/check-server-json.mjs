#!/usr/bin/env node
// server.json against the official MCP Registry's JSON Schema, of the release its `$schema` names, alone and with
// docs/publishing.md's example `remotes` entry added. The schema is not in this repository (nothing fetched from
// elsewhere is committed): it is read from ../shared/vendor/mcp-registry/<release>/server.schema.json beside the
// clone, or from MCP_REGISTRY_SCHEMA. .ci/run runs this; `npm test` checks the rest of server.json without it.
// Usage: node scripts/check-server-json.mjs     (exit 1 when server.json does not validate or the schema is missing)
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { remoteExample } from './lib/server-json.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const server = JSON.parse(readFileSync(resolve(ROOT, 'server.json'), 'utf8'));
const release = /\/schemas\/([^/]+)\/server\.schema\.json$/.exec(server.$schema ?? '')?.[1];
if (!release) fail(`server.json's $schema (${server.$schema}) names no schema release`);
const schemaPath =
  process.env.MCP_REGISTRY_SCHEMA ??
  resolve(ROOT, '..', 'shared', 'vendor', 'mcp-registry', release, 'server.schema.json');
if (!existsSync(schemaPath)) {
  fail(
    `${schemaPath} not found: the registry's ${release} server.schema.json belongs there (or set MCP_REGISTRY_SCHEMA)`,
  );
}
const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
if (schema.$id !== server.$schema) fail(`${schemaPath} is ${schema.$id}, not the release server.json names`);
// The schema is generated from OpenAPI and uses its `example` keyword, which strict mode rejects.
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

const [npmPackage] = server.packages;
const cases = [
  ['server.json', server, true],
  ["server.json with docs/publishing.md's remotes entry", { ...server, remotes: remoteExample(ROOT).remotes }, true],
  // The schema bites: a name without a namespace and an unknown transport are refused.
  ['a name without a namespace', { ...server, name: 'svc-platform-mcp' }, false],
  ['an unknown transport', { ...server, packages: [{ ...npmPackage, transport: { type: 'carrier-pigeon' } }] }, false],
];
let failed = false;
for (const [what, document, valid] of cases) {
  const ok = validate(document) === valid;
  failed ||= !ok;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what} ${valid ? 'validates' : 'is refused'}`);
  if (!ok && valid) console.log(JSON.stringify(validate.errors, null, 2));
}
console.log(`against ${schemaPath}`);
process.exit(failed ? 1 : 0);

function fail(message) {
  console.error(`check-server-json: ${message}`);
  process.exit(1);
}
