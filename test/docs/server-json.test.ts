import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { remoteExample } from '../../scripts/lib/server-json.mjs';
import { ConfigError, parseCommand, type Env } from '../../src/config/index.js';
import { bearerChecker } from '../../src/transports/http-security.js';
import { SECRET_VARIABLES } from '../helpers/secret-variables.js';

/*
 * server.json is what the official MCP Registry publishes about us. Its validation against the registry's own JSON
 * Schema, which is not in this repository, is scripts/check-server-json.mjs, run by .ci/run; here is what a clone
 * alone can check.
 */

const repo = fileURLToPath(new URL('../..', import.meta.url));

interface EnvironmentVariable {
  name: string;
  isSecret?: boolean;
  isRequired?: boolean;
  default?: string;
  choices?: string[];
}
interface ServerJson {
  $schema: string;
  name: string;
  description: string;
  version: string;
  packages: {
    registryType: string;
    identifier: string;
    version: string;
    transport: { type: string };
    environmentVariables: EnvironmentVariable[];
  }[];
  remotes?: unknown[];
}

const server = JSON.parse(readFileSync(resolve(repo, 'server.json'), 'utf8')) as ServerJson;
const pkg = JSON.parse(readFileSync(resolve(repo, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  mcpName?: string;
};
const [npmPackage] = server.packages;
const listed = npmPackage!.environmentVariables;

/** Every name the configuration reads, found by running it against an environment that records each lookup. */
function variablesTheServerReads(): Set<string> {
  const read = new Set<string>();
  const recording = new Proxy({} as Env, {
    get: (_target, name) => {
      if (typeof name === 'string') read.add(name);
      return undefined;
    },
  });
  parseCommand(['--http'], recording);
  return read;
}

const serve = (env: Env) => {
  const command = parseCommand(['--http'], env);
  if (command.kind !== 'serve') throw new Error(`expected a serve command, got ${command.kind}`);
  return command.config;
};

describe('server.json', () => {
  it('carries the name and version npm publishes (mcpName proves the package is ours)', () => {
    expect(pkg.mcpName).toBe('io.github.svc-platform/svc-platform-mcp');
    expect(server.name).toBe(pkg.mcpName);
    expect(server.version).toBe(pkg.version);
    // The schema release it follows, which docs/publishing.md names too.
    expect(server.$schema).toMatch(
      /^https:\/\/static\.modelcontextprotocol\.io\/schemas\/[\d-]+\/server\.schema\.json$/,
    );
    expect(readFileSync(resolve(repo, 'docs', 'publishing.md'), 'utf8')).toContain(server.$schema);
    expect(server.packages).toHaveLength(1);
    expect(npmPackage).toMatchObject({
      registryType: 'npm',
      identifier: pkg.name,
      version: pkg.version,
      transport: { type: 'stdio' },
    });
    // The registry's own limits, also checked by name here, so that a failure says which.
    expect(server.description.length).toBeLessThanOrEqual(100);
    expect(server.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
  });

  it('lists only variables the server reads, and every SVC_* variable it reads', () => {
    const read = variablesTheServerReads();
    // The recording sees names built at run time too (per-service URLs and key pairs).
    expect(read).toContain('SVC_KMS_URL');
    expect(read).toContain('SVC_MAPS_CLIENT_SECRET');
    const names = listed.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((name) => !read.has(name))).toEqual([]);
    expect([...read].filter((name) => name.startsWith('SVC_') && !names.includes(name))).toEqual([]);
  });

  it('marks exactly the secrets isSecret, and requires none (the server starts with no variable set)', () => {
    expect(
      listed
        .filter((v) => v.isSecret)
        .map((v) => v.name)
        .sort(),
    ).toEqual([...SECRET_VARIABLES].sort());
    expect(listed.filter((v) => v.isRequired)).toEqual([]);
    expect(() => serve({})).not.toThrow();
  });

  it('gives the defaults the server applies and choices it accepts', () => {
    const withDefaults = listed.filter((v) => v.default !== undefined);
    expect(withDefaults.map((v) => v.name)).toContain('SVC_TIMEOUT_MS');
    for (const v of withDefaults) expect(serve({ [v.name]: v.default }), v.name).toEqual(serve({}));
    const withChoices = listed.filter((x) => x.choices);
    expect(withChoices.map((v) => v.name)).toEqual(expect.arrayContaining(['SVC_STREAMING_REGION', 'SVC_READ_ONLY']));
    for (const v of withChoices) {
      for (const choice of v.choices!) expect(() => serve({ [v.name]: choice }), `${v.name}=${choice}`).not.toThrow();
      expect(() => serve({ [v.name]: 'not-a-choice' })).toThrow(ConfigError);
    }
  });

  it('has no remotes (no public deployment); docs/publishing.md shows an operator how to add theirs', () => {
    expect(server.remotes).toBeUndefined();
    const [remote] = remoteExample(repo).remotes;
    expect(remote).toMatchObject({ type: 'streamable-http' });
    expect(new URL(remote!.url).pathname).toBe('/mcp');
    const authorization = remote!.headers.find((h) => h.name === 'Authorization');
    expect(authorization).toMatchObject({ isRequired: true, isSecret: true });
    // The header as a client fills it in is one the HTTP transport accepts.
    const token = 'a-token-from-SVC_MCP_AUTH_TOKEN';
    expect(bearerChecker(token)({ authorization: authorization!.value.replace('{token}', token) })).toBe('ok');
  });
});
