#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios, suite "all")
// against `svc-platform-mcp --http --sandbox` and compares the outcome with conformance/expected-failures.txt.
// Exits 1 on any failure not listed there, on a scenario that produced no result, on a malformed list, or when
// the server does not shut down cleanly (exit 0) on SIGTERM afterwards. A listed scenario that now passes is
// reported (remove it from the list) but does not fail the run.
//
// Usage: node scripts/conformance.mjs            (builds dist/ first if it is missing)
// Env:   SVC_MCP_TEST_CLI  server entry point to test instead of dist/cli.js
//        CONFORMANCE_KEEP=1  keep the results directory even when everything is as expected
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeBinary } from './nodes.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = process.env.SVC_MCP_TEST_CLI ?? join(ROOT, 'dist', 'cli.js');
const SUITE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const EXPECTED = join(ROOT, 'conformance', 'expected-failures.txt');
const SUITE_TIMEOUT_MS = 180_000;
// The suite needs Node 22 or later (0.1.14 and later do not start on 20); the server runs on the machine's Node.
const SUITE_NODE = nodeBinary(22);

const say = (line = '') => process.stdout.write(`${line}\n`);

function readExpected() {
  const expected = new Map();
  const problems = [];
  readFileSync(EXPECTED, 'utf8')
    .split('\n')
    .forEach((raw, i) => {
      const line = raw.replace(/#.*$/, '').trim();
      if (!line) return;
      const match = /^(\S+)\s+(\S.*)$/.exec(line);
      if (!match) problems.push(`line ${i + 1}: "${line}" needs a scenario name and a one-line reason`);
      else expected.set(match[1], match[2]);
    });
  return { expected, problems };
}

function listScenarios() {
  const out = spawnSync(SUITE_NODE, [SUITE, 'list', '--server'], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`conformance list failed: ${out.stderr}`);
  // "  - name" or, from 0.1.14, "  - name [2025-06-18,2025-11-25]" (the spec versions it checks).
  return [...out.stdout.matchAll(/^\s+-\s+(\S+)(?:\s+\[[^\]]*\])?\s*$/gm)].map((m) => m[1]);
}

function startServer() {
  const child = spawn(process.execPath, [CLI, '--http', '--port', '0', '--sandbox'], {
    // The suite is one client on one address that opens a session per scenario and leaves most of them open: more
    // than one address may hold by default (SVC_MCP_MAX_SESSIONS_PER_CLIENT, 10).
    env: { PATH: process.env.PATH ?? '', SVC_MCP_MAX_SESSIONS_PER_CLIENT: '100' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 20 s:\n${stderr}`)), 20_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${stderr}`));
    });
  });
  return { child, url, exited, stderr: () => stderr };
}

function runSuite(url, outputDir) {
  return new Promise((resolve) => {
    const child = spawn(SUITE_NODE, [SUITE, 'server', '--url', url, '--suite', 'all', '-o', outputDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      output += `\n[conformance.mjs] suite killed after ${SUITE_TIMEOUT_MS / 1000} s\n`;
      child.kill('SIGKILL');
    }, SUITE_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(output);
    });
  });
}

/** scenario -> { failed: check messages[], warnings: number, passed: number } from `-o` result folders. */
function readResults(outputDir) {
  const results = new Map();
  for (const entry of readdirSync(outputDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const scenario = entry.name.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    const file = join(outputDir, entry.name, 'checks.json');
    if (!existsSync(file)) continue;
    const checks = JSON.parse(readFileSync(file, 'utf8'));
    const failed = checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? 'failed'}`);
    results.set(scenario, {
      failed,
      warnings: checks.filter((c) => c.status === 'WARNING').length,
      passed: checks.filter((c) => c.status === 'SUCCESS').length,
    });
  }
  return results;
}

async function main() {
  if (!existsSync(CLI)) {
    say(`${CLI} is missing: building`);
    const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) return 1;
  }
  const { expected, problems } = readExpected();
  const scenarios = listScenarios();
  for (const name of expected.keys()) {
    if (!scenarios.includes(name))
      problems.push(`expected-failures.txt lists "${name}", which the suite does not have`);
  }

  const outputDir = mkdtempSync(join(tmpdir(), 'svc-mcp-conformance-'));
  const server = startServer();
  let url;
  try {
    url = await server.url;
  } catch (error) {
    say(String(error.message));
    return 1;
  }
  // The DNS-rebinding scenario needs a loopback URL; the server prints the one it bound (127.0.0.1 by default).
  say(`conformance ${scenarios.length} server scenarios against ${url} (--http --sandbox)`);
  const started = Date.now();
  const output = await runSuite(url, outputDir);
  writeFileSync(join(outputDir, 'suite-output.log'), output);

  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
  const { code, signal } = await server.exited;
  clearTimeout(timer);
  writeFileSync(join(outputDir, 'server-stderr.log'), server.stderr());
  if (code !== 0) problems.push(`the server did not exit 0 on SIGTERM (code ${code}, signal ${signal})`);

  const results = readResults(outputDir);
  const unexpected = [];
  const nowPassing = [];
  let passed = 0;
  let expectedFailures = 0;
  for (const name of scenarios) {
    const result = results.get(name);
    if (!result) {
      unexpected.push({ name, why: ['no result (the scenario crashed or the suite was cut short)'] });
      continue;
    }
    const failed = result.failed.length > 0;
    const warn = result.warnings ? ` (${result.warnings} warning${result.warnings > 1 ? 's' : ''})` : '';
    if (failed && expected.has(name)) {
      expectedFailures += 1;
      say(`  expected-fail  ${name}: ${expected.get(name)}`);
    } else if (failed) {
      unexpected.push({ name, why: result.failed });
      say(`  FAIL           ${name}`);
    } else {
      passed += 1;
      if (expected.has(name)) nowPassing.push(name);
      say(`  pass           ${name}${warn}`);
    }
  }

  say();
  say(
    `${passed} passed, ${expectedFailures} failed as expected, ${unexpected.length} unexpected failure(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const name of nowPassing) say(`note: ${name} now passes: remove it from conformance/expected-failures.txt`);
  for (const { name, why } of unexpected) {
    say(`UNEXPECTED FAILURE ${name}:`);
    for (const line of why) say(`    ${line}`);
  }
  for (const problem of problems) say(`PROBLEM: ${problem}`);

  const ok = unexpected.length === 0 && problems.length === 0;
  if (ok && process.env.CONFORMANCE_KEEP !== '1') rmSync(outputDir, { recursive: true, force: true });
  else say(`results and logs: ${outputDir}`);
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`conformance.mjs: ${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
