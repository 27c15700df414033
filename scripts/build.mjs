// Bundles the server into one ESM file so that start-up reads one module instead of hundreds.
// Type checking is `npm run typecheck`; this step only transpiles.
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
  sourcemap: 'linked',
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
await chmod('dist/cli.js', 0o755);
