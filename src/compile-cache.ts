// Where Node 22.1+ may keep the server's compiled code between starts (module.enableCompileCache): a directory this
// user alone owns and may write, because a cache entry is code the next start runs. Never Node's default,
// $TMPDIR/node-compile-cache, which is shared: another local user can create it first and plant an entry there, and a
// server run as root would then run the planted code at every start.
import type { lstatSync, mkdirSync, readdirSync, statfsSync, statSync, unlinkSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** What the choice depends on: the process's values in dist/cli.js, a test's own in the tests. */
export interface CacheDirSources {
  env: Readonly<Record<string, string | undefined>>;
  /** os.homedir, which throws when there is no home. */
  homedir(): string;
  tmpdir(): string;
  /** process.getuid(); undefined where there are no uids (Windows, whose temporary directory is the user's own). */
  uid: number | undefined;
  fs: { mkdirSync: typeof mkdirSync; lstatSync: typeof lstatSync };
}

const NAME = 'svc-platform-mcp';

/**
 * The first of $XDG_CACHE_HOME/svc-platform-mcp (when absolute, as the XDG specification asks),
 * ~/.cache/svc-platform-mcp and <tmpdir>/svc-platform-mcp-<uid> that is, once made (mode 0700), a real directory of
 * this user's that no one else may write to; undefined when none is, or with NODE_DISABLE_COMPILE_CACHE=1: the server
 * then runs without a cache, only slower. Never throws.
 */
export function privateCacheDir(sources: CacheDirSources): string | undefined {
  if (sources.env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  return candidates(sources).find((dir) => ownPrivateDir(dir, sources));
}

function candidates({ env, homedir, tmpdir, uid }: CacheDirSources): string[] {
  const dirs: string[] = [];
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) dirs.push(join(xdg, NAME));
  const home = attempt(homedir);
  if (home && isAbsolute(home)) dirs.push(join(home, '.cache', NAME));
  const tmp = attempt(tmpdir);
  if (tmp && isAbsolute(tmp)) dirs.push(join(tmp, uid === undefined ? NAME : `${NAME}-${uid}`));
  return dirs;
}

/** Made if missing, then checked as it is: whoever made it, only a directory of ours alone will do. */
function ownPrivateDir(dir: string, { uid, fs }: CacheDirSources): boolean {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory()) return false; // a link is refused, wherever it points
    return uid === undefined || (stat.uid === uid && (stat.mode & 0o077) === 0);
  } catch {
    return false;
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
