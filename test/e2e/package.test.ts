import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/spawn-server.js';

/*
 * What a user gets from `npm pack`: the tarball is installed into an empty directory, offline, and run with
 * `npx` exactly as the README tells users to. Nothing here reads the repository's dist/ directly.
 */

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { name: string; version: string };
const manifest = JSON.parse(readFileSync(join(repo, 'manifest.json'), 'utf8')) as { version: string };

let work: string;
let app: string;
let env: Record<string, string>;
let packedFiles: string[];
let tarball: string;

beforeAll(async () => {
  if (!existsSync(join(repo, 'dist/cli.js')))
    throw new Error('dist/cli.js does not exist: run `npm run build` first (npm test does)');
  work = mkdtempSync(join(tmpdir(), 'svc-pkg-'));
  app = join(work, 'app');
  for (const dir of [app, join(work, 'home'), join(work, 'cache')]) mkdirSync(dir);
  // A fresh HOME and cache and --offline: nothing can come from the network or from the user's npm setup.
  env = {
    PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
    HOME: join(work, 'home'),
    npm_config_cache: join(work, 'cache'),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
  };
  // --ignore-scripts: `prepare` would rebuild dist/ while other test files spawn it; `npm test` built it already.
  const packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
    cwd: repo,
    env,
  });
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  packedFiles = info!.files.map((f) => f.path);
  tarball = join(work, info!.filename);
  // No --ignore-scripts here: a tarball install must not run `prepare` (which needs the sources and rolldown,
  // neither of which is in the tarball), so a successful install is itself the check.
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: app, env });
}, 60_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

// Each step is a few seconds alone; npm start-up is what slows down on a loaded machine.
describe('the npm tarball', { timeout: 60_000 }, () => {
  it('holds the bundle, the licences of what it bundles, the manifest and the README; no sources, tests or source maps', () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        'dist/cli.js',
        'dist/THIRD_PARTY_NOTICES.txt',
        'dist/app-views/reverse-geocode.html',
        'package.json',
        'manifest.json',
        'README.md',
      ]),
    );
    const unexpected = packedFiles.filter(
      (f) =>
        !/^(dist\/.+\.c?js|dist\/package\.json|dist\/app-views\/[\w-]+\.html|dist\/THIRD_PARTY_NOTICES\.txt|package\.json|manifest\.json|README\.md)$/.test(
          f,
        ),
    );
    expect(unexpected).toEqual([]);
    // The server is CommonJS (dist/cli.js runs it through V8's code cache): its .cjs files ship too.
    expect(packedFiles.filter((f) => /^dist\/chunks\/server-[\w-]+\.cjs$/.test(f))).toHaveLength(1);
  });

  it('installs with no dependencies', () => {
    const installed = JSON.parse(readFileSync(join(app, 'node_modules', pkg.name, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(installed.dependencies).toBeUndefined();
    expect(readFileSync(join(app, 'package-lock.json'), 'utf8').match(/"node_modules\//g)).toHaveLength(1);
  });

  it('`npx svc-platform-mcp --version` prints the version of package.json and manifest.json on stdout', async () => {
    const { stdout } = await run('npx', ['--no', '--offline', 'svc-platform-mcp', '--version'], { cwd: app, env });
    expect(stdout.trim()).toBe(pkg.version);
    expect(manifest.version).toBe(pkg.version);
  });

  it('runs straight from the tarball with `npx -y --package <tarball> svc-platform-mcp` (the README route)', async () => {
    // From HOME, not from the install: npx must unpack the tarball itself. A bare tarball path as the command
    // would be run as a shell script, hence --package.
    const { stdout } = await run('npx', ['-y', '--offline', '--package', tarball, 'svc-platform-mcp', '--version'], {
      cwd: env.HOME,
      env,
    });
    expect(stdout.trim()).toBe(pkg.version);
  });

  it('`npx svc-platform-mcp --sandbox` serves MCP over stdio: tools/list and a tool call', async () => {
    // --no: npx must find the installed package and never offer to download one.
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--no', '--offline', 'svc-platform-mcp', '--sandbox'],
      cwd: app,
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'svc-platform-mcp-package-test', version: '0.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      // Fifteen operations and the workflow tool.
      expect(tools, stderr).toHaveLength(16);
      const result = (await client.callTool({
        name: 'search_list_tokenizer_languages',
        arguments: {},
      })) as CallToolResult;
      expect(result.isError, textOf(result)).toBeFalsy();
      const languages = (JSON.parse(textOf(result)) as { languages: { language: string }[] }).languages.map(
        (l) => l.language,
      );
      expect(languages).toEqual(['chinese', 'english', 'indonesian', 'japanese', 'korean', 'thai']);
      expect(stderr).toContain('SANDBOX MODE');
    } finally {
      await client.close();
    }
  });
});
