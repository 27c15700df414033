// esbuild plugins that keep work out of start-up (see BENCHMARKS.md, "Cold start"). Each swaps one module for a
// stand-in in scripts/shims/ that loads the original on first use; the sources and the tests are unchanged.
import { readFile } from 'node:fs/promises';
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
 * The SDK's validation/ajv-provider.js -> shims/ajv-lazy.mjs: the SDK's Server builds an Ajv instance with every
 * ajv-formats format in its constructor, used only to check answers to elicitation requests (which we never send).
 * The stand-in builds it on first use; `#sdk-ajv-provider` is the original module.
 */
export const lazyAjv = {
  name: 'lazy-ajv',
  setup(build) {
    let original;
    build.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, async (args) => {
      if (!args.importer.includes('@modelcontextprotocol/sdk')) return undefined;
      original ??= (await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir })).path;
      return { path: shim('ajv-lazy.mjs') };
    });
    build.onResolve({ filter: /^#sdk-ajv-provider$/ }, () => ({ path: original }));
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

export const STARTUP_PLUGINS = [lazyUndici, lazyAjv, englishZodLocales];
