// Runs a CommonJS file (the built server) the way `require` would, with V8's code cache: the code V8 compiled for it
// in an earlier run, the functions compiled while it ran included, is read back instead of compiled again. Node's own
// compile cache keeps only what V8 compiled with a module before it ran, and the start then compiles every function
// of the first answers again (BENCHMARKS.md). The cache is code this process runs: it lives only in the directory
// src/compile-cache.ts pinned (/proc/self/fd/N), written and read through that descriptor.
import Module from 'node:module';
import { readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { debuglog } from 'node:util';
import { Script } from 'node:vm';

/** A file run by runWithCodeCache. */
export interface CachedRun {
  /** The module as `require` would give it. */
  exports: unknown;
  /** Whether V8 took the cache (false: there was none, or V8 refused it). */
  hit: boolean;
  /**
   * Writes the cache for the next run, with every function compiled until now, once; nothing when it was taken as it
   * was, or with no directory for it. Never throws: a start without a cache is only slower.
   */
  save(): void;
}

/**
 * Runs `file`, registered in `require.cache` before it runs, as `require` does: the chunks it loads later require it
 * back and must get this instance, not a second one. Its cache lives in `cacheDir` (undefined: none), named by the
 * file's name (which the build makes from its content), its size and modification time (V8 checks only the length of
 * the source: an installed file edited in place must not run the code of the one before; a checksum would cost a
 * start the loading of node:zlib), and the Node version and architecture (V8 checks its own version and flags, and
 * refuses what does not fit).
 */
export function runWithCodeCache(file: string, cacheDir: string | undefined): CachedRun {
  const source = readFileSync(file, 'utf8');
  const { size, mtimeMs } = statSync(file);
  const key = `${basename(file)}-${size}-${Math.round(mtimeMs)}-${process.version}-${process.arch}.v8cache`;
  const cacheFile = cacheDir && join(cacheDir, key);
  const cachedData = cacheFile ? readOrUndefined(cacheFile) : undefined;
  // The wrapper on a line of its own (lineOffset -1), so that line and column numbers are those of the file.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, {
    filename: file,
    lineOffset: -1,
    cachedData,
  });
  const hit = cachedData !== undefined && script.cachedDataRejected !== true;
  // NODE_DEBUG=svc-platform-mcp tells whether the cache was taken (the tests ask).
  debug('code cache for %s: %s', basename(file), hit ? 'taken' : cachedData ? 'refused' : 'none');
  const require = Module.createRequire(file);
  const module = new Module(file);
  module.filename = file;
  require.cache[file] = module;
  (script.runInThisContext() as CommonJsBody)(module.exports, require, module, file, dirname(file));
  module.loaded = true;
  let saved = hit;
  return {
    exports: module.exports,
    hit,
    save: () => {
      if (!cacheFile || saved) return;
      saved = true;
      const partial = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
        renameSync(partial, cacheFile); // whole or not at all, when two processes write at once
        removeStale(dirname(cacheFile), basename(cacheFile));
      } catch {
        // a read-only or full file system: the next start compiles again, and no partial file stays
        try {
          unlinkSync(partial);
        } catch {
          // never made
        }
      }
    },
  };
}

/**
 * Saves the cache `afterMs` from now, once the start is over and its first answers are given, or at exit if that comes
 * first: a host may end the server in a way that runs no exit handler (SIGKILL), and at exit the cache holds what the
 * run compiled.
 */
export function saveSoon(run: CachedRun, afterMs: number, owner: ExitEvents = process): void {
  const later = setTimeout(run.save, afterMs).unref();
  owner.once('exit', () => {
    clearTimeout(later);
    run.save();
  });
}

/** The process, or what a test puts in its place. */
interface ExitEvents {
  once(name: 'exit', listener: () => void): unknown;
}

const debug = debuglog('svc-platform-mcp');

/** A code cache of this server (any build, any Node), or what a write of one left when it was cut short. */
const CODE_CACHE = /^server-.+\.v8cache(\.\d+\.tmp)?$/;

/** Unused this long, a cache is of a build or a Node no longer run here; one still run is written again, once. */
const STALE_AFTER_MS = 30 * 24 * 60 * 60_000;

/**
 * Removes the code caches of other builds and Node versions written more than 30 days ago, when a start writes its
 * own (after an update): each is about a megabyte, and nothing else would ever remove them. A cache is written once and
 * then only read, so its age says when it was made, not when it was last used: one still in use is made again by the
 * next start that finds it gone, a first start once a month at most.
 */
export function removeStale(dir: string, keep: string, now = Date.now()): void {
  try {
    for (const name of readdirSync(dir)) {
      if (name === keep || !CODE_CACHE.test(name)) continue;
      const file = join(dir, name);
      try {
        if (now - statSync(file).mtimeMs > STALE_AFTER_MS) unlinkSync(file);
      } catch {
        // gone already
      }
    }
  } catch {
    // the directory cannot be read: nothing to remove
  }
}

type CommonJsBody = (
  exports: unknown,
  require: NodeJS.Require,
  module: Module,
  filename: string,
  dirname: string,
) => void;

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
