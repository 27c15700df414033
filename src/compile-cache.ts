// Where Node 22.1+ may keep the server's compiled code between starts (module.enableCompileCache): a directory this
// user alone owns and may write, because a cache entry is code the next start runs. Never Node's default,
// $TMPDIR/node-compile-cache, which is shared: another local user can create it first and plant an entry there, and a
// server run as root would then run the planted code at every start.
import type { lstatSync, mkdirSync } from 'node:fs';
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
