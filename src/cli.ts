#!/usr/bin/env node
// The command (dist/cli.js). It runs the server (./main.ts, the process's edge, built to
// dist/chunks/server-<hash>.cjs) through V8's code cache (./code-cache.ts), and turns on Node's compile cache for the
// chunks the server loads on demand (the sandbox, the HTTP transport, undici, telemetry): both in the directory
// ./compile-cache.ts pinned, and none without one. Node maps stack traces through the source maps
// (node --enable-source-maps) only for modules it loads itself: then the server is loaded with plain require.
// Built as CommonJS (dist/package.json says so), which spares a start Node's ES-module loader.
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, statfsSync, statSync, unlinkSync } from 'node:fs';
import module from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWithCodeCache, saveSoon } from './code-cache.js';
import { hasRoom, privateCacheDir, removeLeftovers } from './compile-cache.js';

/** The built server's file name, set by scripts/build.mjs. */
declare const SERVER_FILE: string;
/** Time enough for a start and its first answers, whose functions the code cache then holds too. */
const SAVE_AFTER_MS = 2_000;

const pinned = privateCacheDir({
  env: process.env,
  homedir,
  tmpdir,
  uid: process.getuid?.(),
  platform: process.platform,
  fs: { openSync, fstatSync, mkdirSync, closeSync },
});
// Not on a file system too full to write the cache whole.
const cacheDir = pinned && hasRoom(pinned.path, statfsSync) ? pinned.path : undefined;
if (cacheDir) {
  try {
    // Always with our directory, by its descriptor (pinned.fd stays open): without one, Node would use the shared
    // $TMPDIR/node-compile-cache.
    module.enableCompileCache(cacheDir);
    // Node writes its cache at exit, and a host may end the server in a way that runs no exit handler (SIGKILL):
    // written once the start is over too. Then what earlier writes left.
    setTimeout(() => {
      module.flushCompileCache();
      removeLeftovers(cacheDir, { readdirSync, statSync, unlinkSync });
    }, SAVE_AFTER_MS).unref();
  } catch {
    // a start without Node's cache is only slower
  }
}
const server = join(__dirname, 'chunks', SERVER_FILE);
if (!cacheDir || process.sourceMapsEnabled) module.createRequire(server)(server);
else saveSoon(runWithCodeCache(server, cacheDir), SAVE_AFTER_MS);
