/** OAuth mode's settings in buildConfig: what starts, and each refusal (one line, exit code 2 at the CLI). */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseCommand, type Config } from '../src/config/index.js';

const ISSUER = 'https://auth.example.com/realms/platform';
const PUBLIC_URL = 'https://mcp.example.com/mcp';

function config(argv: string[], env: Record<string, string>): Config {
  const command = parseCommand(argv, env);
  if (command.kind !== 'serve') throw new Error(`expected serve, got ${command.kind}`);
  return command.config;
}

function refused(env: Record<string, string>, message: RegExp, argv = ['--http']): void {
  expect(() => parseCommand(argv, env)).toThrow(ConfigError);
  expect(() => parseCommand(argv, env)).toThrow(message);
}

describe('OAuth mode settings', () => {
  it('takes the issuer and the public URL as written, and binds beyond loopback with them', () => {
    const c = config(['--http', '--host', '0.0.0.0'], { SVC_MCP_OAUTH_ISSUER: ISSUER, SVC_MCP_PUBLIC_URL: PUBLIC_URL });
    expect(c.http.oauth).toEqual({ issuer: ISSUER, publicUrl: PUBLIC_URL, timeoutMs: 5000 });
    expect(c.http.authToken).toBeUndefined();
  });

  it('takes the deadline for the authorization server from SVC_MCP_OAUTH_TIMEOUT_MS, within its bounds', () => {
    const env = { SVC_MCP_OAUTH_ISSUER: ISSUER, SVC_MCP_PUBLIC_URL: PUBLIC_URL };
    expect(config(['--http'], { ...env, SVC_MCP_OAUTH_TIMEOUT_MS: '250' }).http.oauth?.timeoutMs).toBe(250);
    refused({ ...env, SVC_MCP_OAUTH_TIMEOUT_MS: '99' }, /SVC_MCP_OAUTH_TIMEOUT_MS/);
  });

  it('allows an http issuer on loopback only', () => {
    for (const issuer of ['http://127.0.0.1:8080', 'http://localhost:8080/realms/dev', 'http://[::1]:9000']) {
      expect(
        config(['--http'], { SVC_MCP_OAUTH_ISSUER: issuer, SVC_MCP_PUBLIC_URL: PUBLIC_URL }).http.oauth?.issuer,
      ).toBe(issuer);
    }
    refused(
      { SVC_MCP_OAUTH_ISSUER: 'http://auth.example.com', SVC_MCP_PUBLIC_URL: PUBLIC_URL },
      /^SVC_MCP_OAUTH_ISSUER must be an https URL \(http only on loopback\)$/,
    );
  });

  it('refuses OAuth together with SVC_MCP_AUTH_TOKEN', () => {
    refused(
      { SVC_MCP_OAUTH_ISSUER: ISSUER, SVC_MCP_PUBLIC_URL: PUBLIC_URL, SVC_MCP_AUTH_TOKEN: 'a'.repeat(32) },
      /^SVC_MCP_OAUTH_ISSUER and SVC_MCP_AUTH_TOKEN exclude each other: set one of them$/,
    );
  });

  it('refuses OAuth without SVC_MCP_PUBLIC_URL, and a public URL without OAuth', () => {
    refused({ SVC_MCP_OAUTH_ISSUER: ISSUER }, /^SVC_MCP_OAUTH_ISSUER needs SVC_MCP_PUBLIC_URL/);
    refused({ SVC_MCP_PUBLIC_URL: PUBLIC_URL }, /^SVC_MCP_PUBLIC_URL is set without SVC_MCP_OAUTH_ISSUER$/);
  });

  it('refuses URLs that are not plain URLs', () => {
    refused(
      { SVC_MCP_OAUTH_ISSUER: 'auth.example.com', SVC_MCP_PUBLIC_URL: PUBLIC_URL },
      /SVC_MCP_OAUTH_ISSUER is not a URL/,
    );
    refused(
      { SVC_MCP_OAUTH_ISSUER: ISSUER, SVC_MCP_PUBLIC_URL: 'https://mcp.example.com/mcp#x' },
      /SVC_MCP_PUBLIC_URL must have no query, fragment or user info/,
    );
    refused(
      { SVC_MCP_OAUTH_ISSUER: ISSUER, SVC_MCP_PUBLIC_URL: 'ftp://mcp.example.com/mcp' },
      /SVC_MCP_PUBLIC_URL must be an http\(s\) URL/,
    );
  });

  it('still refuses binding beyond loopback with neither mode, naming both', () => {
    refused({}, /without SVC_MCP_AUTH_TOKEN or SVC_MCP_OAUTH_ISSUER/, ['--http', '--host', '0.0.0.0']);
  });

  it('is an HTTP setting: stdio ignores it', () => {
    expect(config([], { SVC_MCP_OAUTH_ISSUER: 'http://auth.example.com' }).http.oauth).toBeUndefined();
  });
});
