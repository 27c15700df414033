// Bundles the server into one ESM file so that start-up reads one module instead of hundreds.
// Type checking is `npm run typecheck`; this step only transpiles.
import { build } from 'esbuild';
import { chmod, rm } from 'node:fs/promises';
import { STARTUP_PLUGINS } from './build-plugins.mjs';

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
  // Loads undici and ajv on first use rather than at start-up (see build-plugins.mjs and BENCHMARKS.md).
  plugins: STARTUP_PLUGINS,
  sourcemap: 'linked',
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
await chmod('dist/cli.js', 0o755);
