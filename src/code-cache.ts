// Runs a CommonJS file (the built server) the way `require` would, with V8's code cache: the code V8 compiled for it
// in an earlier run, functions compiled while it ran included, is read back instead of compiled again. Compiling the
// server is most of a start: with the cache, a start takes about 30 ms less here (BENCHMARKS.md). Node 20 has no
// compile cache of its own, and Node's (22.1+) did less for the ES modules of the previous build.
import Module from 'node:module';
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** A file run by runWithCodeCache. */
export interface CachedRun {
  /** The module as `require` would give it. */
  exports: unknown;
  /** Whether V8 took the cache (false: there was none, it was not readable, or V8 refused it). */
  hit: boolean;
  /**
   * Writes the cache for the next run, with every function compiled until now, once; nothing when it was used as it
   * was, or when there is no private directory for it. Never throws: a start without a cache is only slower.
   */
  save(): void;
}

/**
 * Runs `file`, registered in `require.cache` before it runs, as `require` does: the chunks it loads later require it
 * back and must get this instance, not a second one. Its cache lives in `cacheDir` (undefined: none), under the file's
 * name, which the build makes from its content, and the Node version and architecture (V8 checks its own version and
 * flags, and refuses what does not fit).
 */
export function runWithCodeCache(file: string, cacheDir: string | undefined): CachedRun {
  const source = readFileSync(file, 'utf8');
  const cacheFile = cacheDir && join(cacheDir, `${basename(file)}-${process.version}-${process.arch}.v8cache`);
  const cachedData = cacheFile ? readOrUndefined(cacheFile) : undefined;
  // The wrapper on a line of its own (lineOffset -1), so that line and column numbers are those of the file.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, {
    filename: file,
    lineOffset: -1,
    cachedData,
  });
  const hit = cachedData !== undefined && script.cachedDataRejected !== true;
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
      try {
        const partial = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
        renameSync(partial, cacheFile); // whole or not at all, when two processes write at once
      } catch {
        // a read-only or full temporary directory: the next start compiles again
      }
    },
  };
}

/**
 * Saves the cache `afterMs` from now, once the start is over and its first answers are given, or at exit if that comes
 * first: a host may end the server in a way that runs no exit handler (SIGKILL, or a terminated process on Windows),
 * and at exit the cache holds what the run compiled.
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

type CommonJsBody = (
  exports: unknown,
  require: NodeJS.Require,
  module: Module,
  filename: string,
  dirname: string,
) => void;

/**
 * The directory for code caches: one of this user's own under the system's temporary directory, which no one else
 * may write to (a cache is code this process will run). Undefined when it cannot be made so.
 */
export function privateCacheDir(root = tmpdir()): string | undefined {
  const uid = process.getuid?.();
  const dir = join(root, `svc-platform-mcp-${uid ?? 'cache'}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) return undefined;
    // POSIX: ours alone. Windows has no uid, and a temporary directory of each user's own.
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o077) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
