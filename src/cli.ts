#!/usr/bin/env node
// The command (dist/cli.js). Node's compile cache covers only the modules loaded after it is turned on, so this file
// turns it on and then loads the server (./main.ts, the process's edge) as a module of its own: a start after the
// first reads the server's compiled code instead of compiling it again. Node 20 has no compile cache and just runs.
import { lstatSync, mkdirSync, readdirSync, statfsSync, statSync, unlinkSync } from 'node:fs';
import module from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { hasRoom, privateCacheDir, removeLeftovers } from './compile-cache.js';

/** Time enough for a start and its first answers, whose functions the cache then holds too. */
const FLUSH_AFTER_MS = 2_000;

// Neither is in Node 20's types, where neither exists (flushCompileCache: Node 22.10 and later).
const { enableCompileCache, flushCompileCache } = module as {
  enableCompileCache?: (dir: string) => unknown;
  flushCompileCache?: () => void;
};
if (enableCompileCache) {
  const uid = process.getuid?.();
  const dir = privateCacheDir({ env: process.env, homedir, tmpdir, uid, fs: { lstatSync, mkdirSync } });
  try {
    // Always with our directory: without one, Node would use the shared $TMPDIR/node-compile-cache. Not on a file
    // system too full to write it whole.
    if (dir && hasRoom(dir, statfsSync)) {
      enableCompileCache(dir);
      // Node writes the cache at exit, and a host may end the server in a way that runs no exit handler (SIGKILL,
      // or a terminated process on Windows): written once the start is over too. Then what earlier writes left.
      setTimeout(() => {
        flushCompileCache?.();
        removeLeftovers(dir, { readdirSync, statSync, unlinkSync });
      }, FLUSH_AFTER_MS).unref();
    }
  } catch {
    // a start without a cache is only slower
  }
}
await import('./main.js');
