// Where Node may keep the server's compiled code between starts (module.enableCompileCache): a directory this user
// alone owns and may write, reached only through directories no one else may change, because a cache entry is code
// the next start runs. Never Node's default, $TMPDIR/node-compile-cache, which is shared: another local user can
// create it first and plant an entry there, and a server run as root would then run the planted code at every start.
//
// Checked and used as one: the directory is opened component by component from /, each one through the one before it
// (/proc/self/fd/N/name), checked by its open descriptor, and Node is given /proc/self/fd/N of the last one. A rename
// or a link swapped in after the check changes nothing: the descriptor stays on the directory that was checked. Where
// there is no /proc/self/fd (not Linux) there is no such pin, and no cache.
import type { closeSync, fstatSync, mkdirSync, openSync, readdirSync, statfsSync, statSync, unlinkSync } from 'node:fs';
import { constants } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/** What the choice depends on: the process's values in dist/cli.js, a test's own in the tests. */
export interface CacheDirSources {
  env: Readonly<Record<string, string | undefined>>;
  /** os.homedir, which throws when there is no home. */
  homedir(): string;
  tmpdir(): string;
  /** process.getuid(); undefined where there are no uids (Windows): no cache there. */
  uid: number | undefined;
  /** process.platform: the pin needs Linux's /proc/self/fd. */
  platform: string;
  fs: {
    openSync: typeof openSync;
    fstatSync: typeof fstatSync;
    mkdirSync: typeof mkdirSync;
    closeSync: typeof closeSync;
  };
}

/** The chosen directory: `path` (/proc/self/fd/N) is what to use, `fd` stays open for as long as it is used. */
export interface PinnedDir {
  /** Where it is, for people (and tests): not to be used, as the name may point elsewhere by then. */
  dir: string;
  path: string;
  fd: number;
}

const NAME = 'svc-platform-mcp';
const FDS = '/proc/self/fd';
const STICKY = 0o1000;

/**
 * The first of $XDG_CACHE_HOME/svc-platform-mcp (when absolute, as the XDG specification asks),
 * ~/.cache/svc-platform-mcp and <tmpdir>/svc-platform-mcp-<uid> that is (made if missing, mode 0700) a directory of
 * this user's that no one else may write to or enter, below directories each owned by this user or root and
 * writable by no one else (one writable by others only if sticky, like /tmp, with the entry below it this user's, so
 * that no one else may rename or remove it). Undefined when none is, on a system without /proc/self/fd, or with
 * NODE_DISABLE_COMPILE_CACHE=1: the server then runs without a cache, only slower. Never throws.
 */
export function privateCacheDir(sources: CacheDirSources): PinnedDir | undefined {
  if (sources.env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  if (sources.platform !== 'linux' || sources.uid === undefined) return undefined;
  for (const dir of candidates(sources)) {
    const fd = pin(dir, sources.uid, sources.fs);
    if (fd !== undefined) return { dir, path: `${FDS}/${fd}`, fd };
  }
  return undefined;
}

function candidates({ env, homedir, tmpdir, uid }: CacheDirSources): string[] {
  const dirs: string[] = [];
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) dirs.push(join(xdg, NAME));
  const home = attempt(homedir);
  if (home && isAbsolute(home)) dirs.push(join(home, '.cache', NAME));
  const tmp = attempt(tmpdir);
  if (tmp && isAbsolute(tmp)) dirs.push(join(tmp, `${NAME}-${uid}`));
  return dirs;
}

/**
 * Opens `dir` from / down, never following a link, making what is missing (mode 0700) inside directories already
 * checked; the descriptor of `dir` when every step passes, undefined (all closed) otherwise.
 */
function pin(dir: string, uid: number, fs: CacheDirSources['fs']): number | undefined {
  const flags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
  const names = resolve(dir).split('/').filter(Boolean);
  const opened: number[] = [];
  try {
    let fd = fs.openSync('/', flags);
    opened.push(fd);
    let stat = fs.fstatSync(fd);
    for (const name of names) {
      const trusted = stat.uid === uid || stat.uid === 0;
      const othersWrite = (stat.mode & 0o022) !== 0;
      if (!trusted || (othersWrite && (stat.mode & STICKY) === 0)) return undefined;
      const path = `${FDS}/${fd}/${name}`;
      try {
        fd = fs.openSync(path, flags);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
        fs.mkdirSync(path, { mode: 0o700 });
        fd = fs.openSync(path, flags);
      }
      opened.push(fd);
      const parentSticky = othersWrite;
      stat = fs.fstatSync(fd);
      // In a directory others may write to, only the sticky bit keeps them from renaming an entry that is ours.
      if (parentSticky && stat.uid !== uid) return undefined;
    }
    if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return undefined;
    opened.pop();
    return fd;
  } catch {
    return undefined;
  } finally {
    for (const fd of opened) fs.closeSync(fd);
  }
}

function attempt(get: () => string): string | undefined {
  try {
    return get();
  } catch {
    return undefined;
  }
}

/**
 * Below this much free space the cache is not turned on: Node writes each entry to a temporary file and renames it,
 * and on a full file system it leaves the temporary file behind, a partial one at every start. An entry is under
 * 1 MiB.
 */
export const MIN_FREE_BYTES = 16 * 1024 * 1024;

/** Whether the file system of `dir` has room for the cache to be written whole. Never throws. */
export function hasRoom(dir: string, statfs: typeof statfsSync): boolean {
  try {
    const stats = statfs(dir);
    return stats.bavail * stats.bsize >= MIN_FREE_BYTES;
  } catch {
    return false;
  }
}

/** A temporary file of Node's cache: the entry's name, a dot and six random characters. */
const LEFTOVER = /^[0-9a-f]{8}\.[A-Za-z0-9]{6}$/;
/** Older than this, a temporary file is no start's write in progress any more. */
const LEFTOVER_AGE_MS = 60_000;

/**
 * Removes the temporary files an earlier write left in the cache (the file system was full, or the process was killed
 * in the middle): Node does not. Only in our own directory, one level down (Node's per-version directory), and only
 * files older than a minute, so that another start's write in progress is left alone. Never throws.
 */
export function removeLeftovers(
  dir: string,
  fs: { readdirSync: typeof readdirSync; statSync: typeof statSync; unlinkSync: typeof unlinkSync },
  now = Date.now(),
): void {
  try {
    for (const version of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!version.isDirectory()) continue;
      const inVersion = join(dir, version.name);
      for (const name of fs.readdirSync(inVersion)) {
        if (!LEFTOVER.test(name)) continue;
        const file = join(inVersion, name);
        try {
          if (now - fs.statSync(file).mtimeMs > LEFTOVER_AGE_MS) fs.unlinkSync(file);
        } catch {
          // gone already, or not ours to remove
        }
      }
    }
  } catch {
    // no cache yet
  }
}
