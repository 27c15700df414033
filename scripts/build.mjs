// Bundles the server into one ESM file (plus the chunks of what it loads on demand: the sandbox, the HTTP
// transport, undici) so that start-up reads a few modules instead of hundreds. The bundle is the source as
// written: nothing is swapped or replaced. Type checking is `npm run typecheck`; this step only transpiles.
import { build } from 'esbuild';
import { chmod, rm } from 'node:fs/promises';

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/cli.ts'],
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
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
await chmod('dist/cli.js', 0o755);
