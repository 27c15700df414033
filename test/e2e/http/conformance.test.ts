import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI_PATH } from '../../helpers/spawn-server.js';

// The official MCP conformance suite against `--http --sandbox`, through scripts/conformance.mjs, so that
// `npm test` (and so .ci/run) runs it. Every scenario must pass except those listed, with a reason, in
// conformance/expected-failures.txt (scenarios that need the suite's own fixture tools, resources or prompts).

const SCRIPT = fileURLToPath(new URL('../../../scripts/conformance.mjs', import.meta.url));

describe('MCP conformance suite (@modelcontextprotocol/conformance 0.1.16)', () => {
  it('passes every scenario not listed in conformance/expected-failures.txt, dns-rebinding-protection included', () => {
    const run = spawnSync(process.execPath, [SCRIPT], {
      encoding: 'utf8',
      env: { ...process.env, SVC_MCP_TEST_CLI: CLI_PATH },
      timeout: 200_000,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/^\s+pass\s+dns-rebinding-protection$/m);
    expect(output).toMatch(/^\s+pass\s+server-initialize$/m);
    expect(output).toMatch(/^\s+pass\s+tools-list$/m);
  }, 210_000);
});
