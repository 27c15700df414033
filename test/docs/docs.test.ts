import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES, namesOf, variableNamed, type EnvVariable } from '../../src/config/env-variables.js';

describe('the icon of the MCP Bundle', () => {
  it('assets/icon.svg is the server icon the source draws, and assets/icon.png a 512 x 512 PNG of it (npm run icons)', async () => {
    const { SERVER_ICON_SVG } = await import('../../src/mcp/icons.js');
    expect(readFileSync('assets/icon.svg', 'utf8'), 'assets/icon.svg drifted: run `npm run icons`').toBe(
      `${SERVER_ICON_SVG}\n`,
    );
    const png = readFileSync('assets/icon.png');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512]);
    const manifest = JSON.parse(readFileSync('manifest.json', 'utf8')) as { icon: string; icons: unknown[] };
    expect(manifest.icon).toBe('assets/icon.png');
    expect(manifest.icons).toEqual([{ src: 'assets/icon.png', size: '512x512' }]);
  });
});

describe('versions', () => {
  it('the server, package.json and manifest.json carry the same name and version', async () => {
    const { SERVER_DESCRIPTION, SERVER_NAME, SERVER_VERSION } = await import('../../src/version.js');
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      name: string;
      version: string;
      description: string;
    };
    expect(SERVER_DESCRIPTION).toBe(pkg.description);
    const manifest = JSON.parse(readFileSync('manifest.json', 'utf8')) as { name: string; version: string };
    expect([SERVER_NAME, SERVER_VERSION]).toEqual([pkg.name, pkg.version]);
    expect([manifest.name, manifest.version]).toEqual([pkg.name, pkg.version]);
  });
});

const MCPB = 'node_modules/@anthropic-ai/mcpb/dist/cli/cli.js';

describe('manifest.json', () => {
  it('validates with mcpb', () => {
    const out = execFileSync(process.execPath, [MCPB, 'validate', 'manifest.json'], { encoding: 'utf8' });
    expect(out).toContain('Manifest schema validation passes');
  });

  it('packs into a bundle of the built server alone (dist, package.json, manifest, README, icon)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpb-'));
    try {
      // What is in the bundle, read back from it: the log of `pack` groups deep folders and rounds sizes.
      execFileSync(process.execPath, [MCPB, 'pack', '.', join(dir, 'svc.mcpb')], { encoding: 'utf8' });
      execFileSync(process.execPath, [MCPB, 'unpack', join(dir, 'svc.mcpb'), join(dir, 'out')], { encoding: 'utf8' });
      const files = readdirSync(join(dir, 'out'), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => relative(join(dir, 'out'), join(entry.parentPath, entry.name)).split(sep).join('/'));
      expect(files).toEqual(
        expect.arrayContaining([
          'dist/cli.js',
          'dist/THIRD_PARTY_NOTICES.txt',
          'package.json',
          'manifest.json',
          'README.md',
          'assets/icon.png',
          'dist/app-views/reverse-geocode.html',
        ]),
      );
      expect(
        files.filter(
          (f) =>
            !/^(dist\/.+\.c?js|dist\/package\.json|dist\/app-views\/[\w-]+\.html|dist\/THIRD_PARTY_NOTICES\.txt|package\.json|manifest\.json|README\.md|assets\/icon\.png)$/.test(
              f,
            ),
        ),
      ).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves out whatever else sits in the clone: the tarball of `npm pack`, caches, notes', async () => {
    // The rules `mcpb pack` applies (its defaults and .mcpbignore), asked about files a clone may hold.
    const { readMcpbIgnorePatterns, shouldExclude } = await import('@anthropic-ai/mcpb/node');
    const patterns = readMcpbIgnorePatterns('.');
    const stray = [
      'svc-platform-mcp-0.1.0.tgz',
      '.cache/node-v22/bin/node',
      '.scratch/try.mjs',
      'notes.md',
      'coverage/index.html',
      'dist/cli.js.map',
      'assets/icon.svg',
    ];
    expect(stray.filter((file) => !shouldExclude(file, patterns))).toEqual([]);
    const kept = [
      'dist/cli.js',
      'dist/chunks/server-X.cjs',
      'dist/chunks/http-X.cjs',
      'package.json',
      'manifest.json',
      'README.md',
      'assets/icon.png',
    ];
    expect(kept.filter((file) => shouldExclude(file, patterns))).toEqual([]);
  });

  it('maps only variables of the table, sensitive exactly when the table says secret', () => {
    const manifest = readManifestSettings();
    const mapped = Object.entries(manifest.server.mcp_config.env);
    expect(mapped.length).toBeGreaterThan(0);
    for (const [name, reference] of mapped) {
      const variable = variableNamed(name);
      expect(variable, `${name} is in src/config/env-variables.ts`).toBeDefined();
      const key = /^\$\{user_config\.(\w+)\}$/.exec(reference)?.[1];
      expect(key, `${name} maps to a user_config entry`).toBeDefined();
      const setting = manifest.user_config[key!];
      expect(setting, `user_config.${key} exists`).toBeDefined();
      expect(setting!.sensitive === true, `user_config.${key} (${name}) sensitive`).toBe(variable!.secret === true);
    }
  });

  it('gives every optional setting a default, blank for text, so that a host has a value to put in its place', () => {
    const { user_config: settings } = readManifestSettings();
    const optional = Object.entries(settings).filter(([, setting]) => setting.required !== true);
    expect(optional.map(([key]) => key)).toEqual(
      expect.arrayContaining(['access_key', 'secret_key', 'studio_api_key']),
    );
    for (const [key, setting] of optional) expect(setting.default, key).toBeDefined();
    expect(settings.access_key!.default).toBe('');
  });

  it('asks for numbers within their bounds, yes-or-no settings as booleans, and names each variable', () => {
    const { user_config: settings, server } = readManifestSettings();
    expect(settings.timeout_ms).toMatchObject({ type: 'number', default: 30000, min: 1, max: 600000 });
    expect(settings.read_only).toMatchObject({ type: 'boolean', default: false });
    expect(settings.confirm_destructive).toMatchObject({ type: 'boolean', default: true });
    expect(settings.streaming_region).toMatchObject({ type: 'string', default: 'KR' });
    expect(settings.streaming_region!.description).toContain('KR, SGN or JPN');
    for (const [name, reference] of Object.entries(server.mcp_config.env)) {
      const key = /^\$\{user_config\.(\w+)\}$/.exec(reference)![1]!;
      expect(settings[key]!.description, key).toContain(`(${name})`);
    }
  });

  it('every secret of the table that the manifest maps is sensitive, the four credentials among them', () => {
    const manifest = readManifestSettings();
    const env = manifest.server.mcp_config.env;
    const sensitive = (name: string) =>
      manifest.user_config[/\$\{user_config\.(\w+)\}/.exec(env[name] ?? '')?.[1] ?? '']?.sensitive;
    const mappedSecrets = ENV_VARIABLES.filter((v: EnvVariable) => v.secret)
      .flatMap(namesOf)
      .filter((name) => name in env);
    for (const name of mappedSecrets) expect(sensitive(name), `${name} must be sensitive`).toBe(true);
    expect(mappedSecrets).toEqual(
      expect.arrayContaining(['SVC_SECRET_KEY', 'SVC_CLIENT_SECRET', 'SVC_STUDIO_API_KEY', 'SVC_STUDIO_GATEWAY_KEY']),
    );
  });
});

/** What manifest.json says about the environment: the variables it maps and the settings they come from. */
function readManifestSettings() {
  return JSON.parse(readFileSync('manifest.json', 'utf8')) as {
    server: { mcp_config: { env: Record<string, string> } };
    user_config: Record<string, { sensitive?: boolean; required?: boolean; default?: unknown; description: string }>;
  };
}
