// Bundles the server into one ESM file (plus the chunks of what it loads on demand: the sandbox, the HTTP
// transport, undici) so that start-up reads a few modules instead of hundreds. The bundle is the source as
// written: nothing is swapped or replaced. Type checking is `npm run typecheck`; this step only transpiles.
import { build } from 'esbuild';
import { chmod, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

await rm('dist', { recursive: true, force: true });
const { metafile } = await build({
  // dist/cli.js is src/bin.ts, which turns on the compile cache and then loads src/cli.ts.
  entryPoints: { cli: 'src/bin.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Start-up time goes into compiling the bundle: minified, there is half as much to read (names are kept in the
  // source map: node --enable-source-maps dist/cli.js).
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
  metafile: true,
});
await chmod('dist/cli.js', 0o755);
await writeFile('dist/THIRD_PARTY_NOTICES.txt', await notices(metafile));

/**
 * The licence of every package the bundle holds code of: the bundle is a copy of that code, and their licences
 * (MIT, ISC, BSD) ask that the notice travel with it.
 */
async function notices(meta) {
  const roots = new Set();
  for (const input of Object.keys(meta.inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) roots.add(match[1]);
  }
  const sections = [];
  for (const root of [...roots].sort()) {
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
