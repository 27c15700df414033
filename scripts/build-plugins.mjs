// esbuild plugins that keep work out of start-up (see BENCHMARKS.md, "Cold start"). Each swaps one module for a
// stand-in in scripts/shims/ that loads the original on first use; the sources and the tests are unchanged.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build as esbuild } from 'esbuild';
import { fileURLToPath } from 'node:url';

const shim = (name) => fileURLToPath(new URL(`./shims/${name}`, import.meta.url));

/**
 * `import … from 'undici'` in src/ -> shims/undici-lazy.mjs: undici (and node:http, http2, tls under it) is loaded
 * by the first upstream call, in a chunk of its own. Its index.js also loads fetch, WebSocket, caches and mocks,
 * which the server never uses.
 */
export const lazyUndici = {
  name: 'lazy-undici',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, (args) => (isSource(args.importer) ? { path: shim('undici-lazy.mjs') } : undefined));
  },
};

/**
 * The SDK's validation/ajv-provider.js -> shims/ajv-absent.mjs: the SDK's Server builds an Ajv instance (with every
 * ajv-formats format) only to check answers to elicitation requests, which this server never sends. Leaving Ajv out
 * of the bundle saves compiling ~130 KB at every start.
 */
export const withoutAjv = {
  name: 'without-ajv',
  setup(build) {
    build.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, (args) =>
      args.importer.includes('@modelcontextprotocol/sdk') ? { path: shim('ajv-absent.mjs') } : undefined,
    );
  },
};

/**
 * zod's `export * as locales` -> shims/zod-locales-en.mjs (English only): the ~50 translations of zod's error
 * messages are a third of the bundle's zod. The build fails if a source file asks for z.locales, so that nothing
 * can miss a translation at run time.
 */
export const englishZodLocales = {
  name: 'english-zod-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|mini|core)[\\/]/.test(args.importer) ? { path: shim('zod-locales-en.mjs') } : undefined,
    );
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (/\bz\.locales\b|['"]zod(\/v4)?\/locales/.test(source)) {
        return { errors: [{ text: `${args.path} uses zod locales: remove englishZodLocales from scripts/build-plugins.mjs` }] };
      }
      return undefined;
    });
  },
};

const isSource = (importer) => /[\\/]src[\\/]/.test(importer) && !/node_modules/.test(importer);

/**
 * src/mcp/tool-definitions.ts -> the list it returns, computed now: the tools' JSON Schemas are made once per build
 * instead of at every start (~8 ms). The module is bundled and run here, so the list is exactly what the source
 * computes (test/e2e-stdio/definitions.test.ts compares the bundle's tools/list with the source's).
 */
export async function precomputedToolDefinitions() {
  // Inside the project, so that the bundle's imports of zod and the SDK resolve to node_modules.
  const cache = fileURLToPath(new URL('../node_modules/.cache/', import.meta.url));
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(join(cache, 'svc-defs-'));
  try {
    const outfile = join(dir, 'definitions.mjs');
    await esbuild({
      entryPoints: [fileURLToPath(new URL('../src/mcp/tool-definitions.ts', import.meta.url))],
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
      logLevel: 'error',
    });
    const json = JSON.stringify((await import(outfile)).toolDefinitions());
    return {
      name: 'precomputed-tool-definitions',
      setup(build) {
        build.onLoad({ filter: /[\\/]src[\\/]mcp[\\/]tool-definitions\.ts$/ }, () => ({
          contents: `export function toolDefinitions() { return JSON.parse(${JSON.stringify(json)}); }`,
          loader: 'js',
        }));
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const STARTUP_PLUGINS = [lazyUndici, withoutAjv, englishZodLocales];
