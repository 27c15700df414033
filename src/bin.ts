#!/usr/bin/env node
// The command (dist/cli.js). It runs the server (src/cli.ts, built to dist/chunks/server-<hash>.cjs) with V8's code
// cache (./code-cache.ts), and turns on Node's compile cache (22.1+) for the chunks the server loads on demand (the
// sandbox, the HTTP transport, undici). Node's NODE_DISABLE_COMPILE_CACHE=1 turns both off: the one variable of the
// environment read outside src/cli.ts, as Node itself reads it.
import module from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateCacheDir, runWithCodeCache, saveSoon } from './code-cache.js';

/** The built server's file name, set by scripts/build.mjs. */
declare const SERVER_FILE: string;
/** Time enough for a start and its first answers, whose functions the cache then holds too. */
const SAVE_AFTER_MS = 2_000;

const cacheOff = process.env.NODE_DISABLE_COMPILE_CACHE === '1';
// Not in Node 20's types, where it does not exist either.
if (!cacheOff) (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const server = join(fileURLToPath(new URL('.', import.meta.url)), 'chunks', SERVER_FILE);
if (cacheOff || process.sourceMapsEnabled) {
  // Node maps stack traces through the source maps (node --enable-source-maps) only for modules it loads itself.
  module.createRequire(import.meta.url)(server);
} else {
  saveSoon(runWithCodeCache(server, privateCacheDir()), SAVE_AFTER_MS);
}
