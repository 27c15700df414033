#!/usr/bin/env node
// The command (dist/cli.js). Node's compile cache covers only the modules loaded after it is turned on, so this file
// turns it on and then loads the server (./main.ts, the process's edge) as a module of its own: a start after the
// first reads the server's compiled code instead of compiling it again.
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, statfsSync, statSync, unlinkSync } from 'node:fs';
import module from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { hasRoom, privateCacheDir, removeLeftovers } from './compile-cache.js';

/** Time enough for a start and its first answers (Node's cache holds what was compiled with each module, not later). */
const FLUSH_AFTER_MS = 2_000;

const pinned = privateCacheDir({
  env: process.env,
  homedir,
  tmpdir,
  uid: process.getuid?.(),
  platform: process.platform,
  fs: { openSync, fstatSync, mkdirSync, closeSync },
});
try {
  // Always with our directory, by its descriptor (pinned.fd stays open): without one, Node would use the shared
  // $TMPDIR/node-compile-cache. Not on a file system too full to write it whole.
  if (pinned && hasRoom(pinned.path, statfsSync)) {
    module.enableCompileCache(pinned.path);
    // Node writes the cache at exit, and a host may end the server in a way that runs no exit handler (SIGKILL):
    // written once the start is over too. Then what earlier writes left.
    setTimeout(() => {
      module.flushCompileCache();
      removeLeftovers(pinned.path, { readdirSync, statSync, unlinkSync });
    }, FLUSH_AFTER_MS).unref();
  }
} catch {
  // a start without a cache is only slower
}
await import('./main.js');
