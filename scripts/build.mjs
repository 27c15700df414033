// Bundles the server into dist/: dist/cli.js (src/cli.ts, the command; dist/package.json makes dist/ CommonJS), the
// server (src/main.ts and all it imports, loaded at every start) in dist/chunks/server-<hash>.cjs, and the chunks of
// what it loads on demand (the sandbox, the HTTP transport, undici, telemetry). The bundle is the source as written:
// nothing is swapped or replaced. Type checking is `npm run typecheck`; this step only transpiles. Then the app views
// (src/mcp/app-views/): each page with its script bundled inline, into dist/app-views/.
import { rolldown } from 'rolldown';
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUNDLE_INPUT, BUNDLE_OUTPUT } from './lib/bundling.mjs';

await rm('dist', { recursive: true, force: true });
const emit = { ...BUNDLE_OUTPUT, sourcemap: true };

// The server and the chunks it loads on demand, as CommonJS: dist/cli.js runs the server's file through V8's code
// cache (src/code-cache.ts), which takes a script, not an ES module, and keeps the functions the first answers
// compiled, which Node's compile cache does not (BENCHMARKS.md). Built as the entry, so that what it shares with the
// chunks stays in it, and a start reads two files.
const server = await rolldown({ input: { server: 'src/main.ts' }, ...BUNDLE_INPUT });
const { output } = await server.write({
  ...emit,
  format: 'cjs',
  dir: 'dist/chunks',
  entryFileNames: '[name]-[hash].cjs',
  chunkFileNames: '[name]-[hash].cjs',
});
await server.close();
// Held, not assumed (Rolldown merges common chunks into the entry that loads the others since 1.3; 1.2 kept its runtime
// helpers apart): a chunk the server's file would load at once is one more file read at every start.
const entry = output.find((chunk) => chunk.type === 'chunk' && chunk.isEntry);
const loadedAtOnce = entry.imports.filter((file) => output.some((chunk) => chunk.fileName === file));
if (loadedAtOnce.length) throw new Error(`the server's file loads ${loadedAtOnce.join(', ')} at every start`);
const serverFile = entry.fileName;

// The command, dist/cli.js, told the server's file name: CommonJS, as dist/package.json says, so that a start does
// not set up Node's ES-module loader for it.
const command = await rolldown({
  input: { cli: 'src/cli.ts' },
  ...BUNDLE_INPUT,
  transform: { ...BUNDLE_INPUT.transform, define: { SERVER_FILE: JSON.stringify(serverFile) } },
});
await command.write({ ...emit, format: 'cjs', dir: 'dist' });
await writeFile('dist/package.json', `${JSON.stringify({ type: 'commonjs' })}\n`);
await command.close();
await chmod('dist/cli.js', 0o755);
const viewModules = await buildView('src/mcp/app-views/reverse-geocode', 'reverse-geocode.html');
const modules = [...output.flatMap((chunk) => (chunk.type === 'chunk' ? chunk.moduleIds : [])), ...viewModules];
await writeFile('dist/THIRD_PARTY_NOTICES.txt', await notices(modules));

/**
 * An MCP Apps view is one self-contained HTML page (a host renders it in a sandboxed frame that may fetch nothing):
 * `dir`/page.html with `dir`/view.ts and all it imports (the ext-apps SDK, proj4) bundled for the browser in place of
 * its `<!--view-script-->`. Returns the modules it holds, for the notices.
 */
async function buildView(dir, file) {
  const view = await rolldown({ input: `${dir}/view.ts`, platform: 'browser', logLevel: 'warn' });
  const { output: chunks } = await view.generate({ ...BUNDLE_OUTPUT, format: 'iife' });
  await view.close();
  const [{ code, moduleIds }] = chunks;
  // Inside <script>, only "</script" (and "<!--", which no minified code here holds) would end or change the element.
  if (/<!--/.test(code)) throw new Error(`${dir}: the bundled script holds "<!--"`);
  const script = `<script>${code.replace(/<\/script/gi, '<\\/script')}</script>`;
  const page = await readFile(`${dir}/page.html`, 'utf8');
  if (!page.includes('<!--view-script-->')) throw new Error(`${dir}/page.html has no <!--view-script-->`);
  await mkdir('dist/app-views', { recursive: true });
  await writeFile(
    `dist/app-views/${file}`,
    page.replace('<!--view-script-->', () => script),
  );
  return moduleIds;
}

/**
 * The licence of every package the bundle holds code of: the bundle is a copy of that code, and their licences
 * (MIT, ISC, BSD, Apache-2.0) ask that the notice travel with it.
 */
async function notices(moduleIds) {
  const roots = new Set();
  for (const id of moduleIds) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(id);
    if (match) roots.add(match[1]);
  }
  const sections = [];
  for (const root of [...roots].sort((a, b) => packageName(a).localeCompare(packageName(b)))) {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    const licenceFile = (await readdir(root)).find((name) => /^(licen[cs]e|copying)(\.|$)/i.test(name));
    const text = licenceFile
      ? (await readFile(join(root, licenceFile), 'utf8')).trim()
      : `License: ${pkg.license ?? 'see the package'}`;
    sections.push(`${pkg.name} ${pkg.version} (${pkg.license ?? 'unknown licence'})\n\n${text}`);
  }
  const rule = `\n\n${'-'.repeat(78)}\n\n`;
  return `svc-platform-mcp bundles code of the following packages, under their licences.${rule}${sections.join(rule)}\n`;
}

function packageName(root) {
  return root.slice(root.lastIndexOf('node_modules/') + 'node_modules/'.length);
}
