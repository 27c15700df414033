// Bundles the server into one ESM file so that start-up reads one module instead of hundreds.
// Type checking is `npm run typecheck`; this step only transpiles.
import { build } from 'esbuild';
import { chmod, rm } from 'node:fs/promises';
import { STARTUP_PLUGINS, precomputedToolDefinitions } from './build-plugins.mjs';

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
  // Keeps work out of start-up: undici loaded on first use, no Ajv, English zod messages only, tool definitions
  // computed at build time (see build-plugins.mjs and BENCHMARKS.md).
  plugins: [...STARTUP_PLUGINS, await precomputedToolDefinitions()],
  sourcemap: 'linked',
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
await chmod('dist/cli.js', 0o755);
