/**
 * Node's compile cache, turned on by dist/cli.js (src/cli.ts) in a directory of the user's own
 * (src/compile-cache.ts), never in the shared $TMPDIR/node-compile-cache where another local user could plant code.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import {
  chmodSync,
  chownSync,
  closeSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MIN_FREE_BYTES,
  hasRoom,
  privateCacheDir,
  removeLeftovers,
  type CacheDirSources,
  type PinnedDir,
} from '../src/compile-cache.js';
import { removeStale } from '../src/code-cache.js';
import { CLI_PATH } from './helpers/spawn-server.js';

const uid = process.getuid?.();
/** The cache needs Linux's /proc/self/fd to pin its directory; elsewhere there is none. */
const pinnable = process.platform === 'linux' && uid !== undefined;
/** Another user, made up: the tests run as root, which may hand a directory to any uid. */
const OTHER = 65534;

let work: string;
const pins: PinnedDir[] = [];
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'compile-cache-'));
});
afterEach(() => {
  for (const pin of pins.splice(0)) closeSync(pin.fd);
  rmSync(work, { recursive: true, force: true });
});

/** A home, a temporary directory and an XDG cache home inside `work`; the real file system. */
function sources(over: Partial<CacheDirSources> = {}): CacheDirSources {
  return {
    env: {},
    homedir: () => join(work, 'home'),
    tmpdir: () => join(work, 'tmp'),
    uid,
    platform: process.platform,
    fs: { openSync: fs.openSync, fstatSync: fs.fstatSync, mkdirSync: fs.mkdirSync, closeSync: fs.closeSync },
    ...over,
  };
}
/** The directory chosen, by name; its descriptor is closed after the test. */
function chosen(over: Partial<CacheDirSources> = {}): string | undefined {
  const pin = privateCacheDir(sources(over));
  if (pin) pins.push(pin);
  return pin?.dir;
}
const xdg = () => join(work, 'xdg');
const inXdg = () => join(xdg(), 'svc-platform-mcp');
const inHome = () => join(work, 'home', '.cache', 'svc-platform-mcp');
const inTmp = () => join(work, 'tmp', `svc-platform-mcp-${uid}`);

describe.runIf(pinnable)('privateCacheDir', () => {
  it('takes $XDG_CACHE_HOME/svc-platform-mcp, made fresh with mode 0700', () => {
    expect(chosen({ env: { XDG_CACHE_HOME: xdg() } })).toBe(inXdg());
    const stat = lstatSync(inXdg());
    expect(stat.isDirectory()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o700);
  });

  it('takes ~/.cache/svc-platform-mcp when XDG_CACHE_HOME is unset, empty or relative (the XDG rule)', () => {
    for (const XDG_CACHE_HOME of [undefined, '', 'relative/cache']) {
      expect(chosen({ env: { XDG_CACHE_HOME } })).toBe(inHome());
    }
    expect(readdirSync(work)).toEqual(['home']);
  });

  it('falls back to <tmpdir>/svc-platform-mcp-<uid> when there is no home', () => {
    const noHome = () => {
      throw new Error('no home directory');
    };
    expect(chosen({ homedir: noHome })).toBe(inTmp());
    expect(chosen({ homedir: () => '' })).toBe(inTmp());
  });

  it('reuses the directory a start before made', () => {
    expect(chosen()).toBe(inHome());
    expect(chosen()).toBe(inHome());
  });

  it('refuses a link in place of the directory, wherever it points, and takes the next', () => {
    const elsewhere = join(work, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    mkdirSync(xdg());
    symlinkSync(elsewhere, inXdg());
    expect(chosen({ env: { XDG_CACHE_HOME: xdg() } })).toBe(inHome());
  });

  it('refuses a directory others may write to or enter', () => {
    mkdirSync(inHome(), { recursive: true, mode: 0o700 });
    chmodSync(inHome(), 0o777);
    expect(chosen()).toBe(inTmp());
    chmodSync(inHome(), 0o750);
    expect(chosen()).toBe(inTmp());
  });

  it.skipIf(uid !== 0)("refuses a directory of another user's, made first (as root: chown to 65534)", () => {
    mkdirSync(join(work, 'tmp'));
    chmodSync(join(work, 'tmp'), 0o1777);
    mkdirSync(inTmp(), { mode: 0o700 });
    chownSync(inTmp(), OTHER, OTHER);
    expect(chosen({ homedir: () => '' })).toBeUndefined();
  });

  it.runIf(uid === 0)('refuses a home inside a directory another user owns or may write to (issue 32, H2)', () => {
    // Another user's directory, even one only they may write to: they can rename what is in it.
    const theirs = join(work, 'theirs');
    mkdirSync(join(theirs, 'home'), { recursive: true, mode: 0o700 });
    chownSync(theirs, OTHER, OTHER);
    expect(chosen({ homedir: () => join(theirs, 'home') })).toBe(inTmp());
    expect(fs.existsSync(join(theirs, 'home', '.cache'))).toBe(false);
    // Ours, but open to all, with no sticky bit: anyone may swap the home for a directory of their own.
    const open = join(work, 'open');
    mkdirSync(join(open, 'home'), { recursive: true, mode: 0o700 });
    chmodSync(open, 0o777);
    expect(chosen({ homedir: () => join(open, 'home') })).toBe(inTmp());
    // Group-writable is writable by someone else too.
    chmodSync(open, 0o775);
    expect(chosen({ homedir: () => join(open, 'home') })).toBe(inTmp());
    expect(fs.existsSync(join(open, 'home', '.cache'))).toBe(false);
  });

  it.runIf(uid === 0)('takes a sticky directory open to all (like /tmp) only where the entry below it is ours', () => {
    const sticky = join(work, 'sticky');
    mkdirSync(join(sticky, 'home'), { recursive: true, mode: 0o700 });
    chmodSync(sticky, 0o1777);
    expect(chosen({ homedir: () => join(sticky, 'home') })).toBe(join(sticky, 'home', '.cache', 'svc-platform-mcp'));
    const planted = join(work, 'sticky2');
    mkdirSync(join(planted, 'home'), { recursive: true, mode: 0o700 });
    chmodSync(planted, 0o1777);
    chownSync(join(planted, 'home'), OTHER, OTHER); // made first by another user: theirs to rename
    expect(chosen({ homedir: () => join(planted, 'home') })).toBe(inTmp());
  });

  it('refuses a link anywhere on the way, not only at the end', () => {
    mkdirSync(join(work, 'real'), { mode: 0o700 });
    symlinkSync(join(work, 'real'), join(work, 'link'));
    expect(chosen({ env: { XDG_CACHE_HOME: join(work, 'link', 'cache') } })).toBe(inHome());
    expect(fs.existsSync(join(work, 'real', 'cache'))).toBe(false);
  });

  it('is used through its descriptor: a directory swapped in after the check is never written', () => {
    const pin = privateCacheDir(sources());
    expect(pin?.dir).toBe(inHome());
    pins.push(pin!);
    expect(pin!.path).toBe(`/proc/self/fd/${pin!.fd}`);
    // Moved away, and another directory put in its place: what is written through the pin goes to the one checked.
    renameSync(inHome(), join(work, 'moved'));
    mkdirSync(inHome(), { mode: 0o700 });
    fs.writeFileSync(join(pin!.path, 'entry'), 'cache');
    expect(readdirSync(join(work, 'moved'))).toEqual(['entry']);
    expect(readdirSync(inHome())).toEqual([]);
  });

  it('is none where there is no /proc/self/fd to pin it by, or no uid', () => {
    expect(chosen({ platform: 'darwin' })).toBeUndefined();
    expect(chosen({ platform: 'win32', uid: undefined })).toBeUndefined();
    expect(readdirSync(work)).toEqual([]);
  });

  it('is none when no candidate will do, and none with NODE_DISABLE_COMPILE_CACHE=1, which makes nothing', () => {
    const fail = () => {
      throw new Error('EACCES');
    };
    expect(chosen({ fs: { ...sources().fs, mkdirSync: fail } })).toBeUndefined();
    expect(chosen({ env: { NODE_DISABLE_COMPILE_CACHE: '1', XDG_CACHE_HOME: xdg() } })).toBe(undefined);
    expect(readdirSync(work)).toEqual([]);
  });
});

describe('a full file system', () => {
  const statfs = (free: number) => (() => ({ bavail: free / 4096, bsize: 4096 })) as unknown as typeof fs.statfsSync;

  it('turns the cache on only with room to write it whole (Node leaves a partial file per start otherwise)', () => {
    expect(hasRoom(work, statfs(MIN_FREE_BYTES))).toBe(true);
    expect(hasRoom(work, statfs(MIN_FREE_BYTES - 4096))).toBe(false);
    expect(hasRoom(join(work, 'missing'), fs.statfsSync)).toBe(false);
    expect(hasRoom(work, fs.statfsSync)).toBe(fs.statfsSync(work).bavail * fs.statfsSync(work).bsize >= MIN_FREE_BYTES);
  });

  it('removes the temporary files earlier writes left, older than a minute, and nothing else', () => {
    const version = join(work, 'v22.23.3-x64-9de703df-0');
    mkdirSync(version, { recursive: true });
    const now = Date.now();
    const make = (name: string, ageMs: number) => {
      fs.writeFileSync(join(version, name), '');
      fs.utimesSync(join(version, name), (now - ageMs) / 1000, (now - ageMs) / 1000);
    };
    make('17416dbc.TNrDGP', 120_000); // a leftover
    make('2b8b6e66.gGiOeU', 5_000); // another start's write in progress
    make('2b8b6e66', 120_000); // an entry
    make('notes.txt1', 120_000); // not Node's
    fs.writeFileSync(join(work, 'a4c9bd45.xnGusl'), ''); // not in a version directory
    removeLeftovers(work, fs, now);
    expect(readdirSync(version).sort()).toEqual(['2b8b6e66', '2b8b6e66.gGiOeU', 'notes.txt1']);
    expect(readdirSync(work).sort()).toEqual(['a4c9bd45.xnGusl', 'v22.23.3-x64-9de703df-0']);
    expect(() => removeLeftovers(join(work, 'missing'), fs)).not.toThrow();
  });

  it('removes the code caches of other builds and Nodes written over 30 days ago, and only those', () => {
    const now = Date.now();
    const day = 24 * 60 * 60_000;
    const make = (name: string, ageMs: number) => {
      fs.writeFileSync(join(work, name), '');
      fs.utimesSync(join(work, name), (now - ageMs) / 1000, (now - ageMs) / 1000);
    };
    const mine = 'server-Ab12.cjs-700000-1764300000000-v24.22.3-x64.v8cache';
    make(mine, 40 * day); // this start's own, however old
    make('server-Old1.cjs-690000-1760000000000-v24.22.3-x64.v8cache', 31 * day); // an earlier build
    make('server-Ab12.cjs-700000-1764300000000-v22.23.5-x64.v8cache', 45 * day); // another Node
    make('server-Old1.cjs-690000-1760000000000-v22.23.5-x64.v8cache.4242.tmp', 31 * day); // a write cut short
    make('server-New2.cjs-710000-1764400000000-v22.23.5-x64.v8cache', 29 * day); // still recent
    make('v22.23.5-x64-9de703df-0', 60 * day); // Node's own cache directory's name, as a file: not ours
    make('notes.v8cache', 60 * day); // not a cache of this server
    removeStale(work, mine, now);
    expect(readdirSync(work).sort()).toEqual([
      'notes.v8cache',
      mine,
      'server-New2.cjs-710000-1764400000000-v22.23.5-x64.v8cache',
      'v22.23.5-x64-9de703df-0',
    ]);
    expect(() => removeStale(join(work, 'missing'), mine)).not.toThrow();
  });
});

describe('dist/cli.js', () => {
  const compileCache = pinnable;
  let shared: string;
  beforeEach(() => {
    // What another local user may prepare: Node's default directory, open to all, with an entry in it.
    shared = join(work, 'tmp', 'node-compile-cache');
    mkdirSync(join(shared, 'planted'), { recursive: true });
    fs.writeFileSync(join(shared, 'planted', 'entry'), 'not a cache');
    chmodSync(shared, 0o777);
  });
  const env = (more: Record<string, string>) => ({
    PATH: process.env.PATH,
    HOME: join(work, 'home'),
    TMPDIR: join(work, 'tmp'),
    // Node (22.1+) tells on stderr which cache files it reads and whether it took them.
    NODE_DEBUG_NATIVE: 'COMPILE_CACHE',
    ...more,
  });
  const start = (more: Record<string, string>) => {
    const run = spawnSync(process.execPath, [CLI_PATH, '--version'], { encoding: 'utf8', env: env(more) });
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    return run.stderr;
  };
  /**
   * A start that loads chunks through Node's loader, and so its compile cache: the sandbox's, with --sandbox (a start
   * without flags loads none: the server's file runs through V8's code cache); stdin at its end, so it then exits.
   */
  const serveSandbox = (more: Record<string, string>) => {
    const run = spawnSync(process.execPath, [CLI_PATH, '--sandbox'], { input: '', encoding: 'utf8', env: env(more) });
    expect(run.status).toBe(0);
    return run.stderr;
  };
  /** The cache files a start read, by Node's account. */
  const read = (stderr: string) => [...stderr.matchAll(/reading cache from (\S+)/g)].map((m) => m[1]!);
  const files = (dir: string) =>
    fs.existsSync(dir)
      ? readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => join(entry.parentPath, entry.name))
      : [];
  const untouched = () => {
    expect(files(shared)).toEqual([join(shared, 'planted', 'entry')]);
    expect(fs.readFileSync(join(shared, 'planted', 'entry'), 'utf8')).toBe('not a cache');
  };

  it.runIf(compileCache)('keeps the cache in $XDG_CACHE_HOME/svc-platform-mcp and takes it at the next start', () => {
    const first = read(serveSandbox({ XDG_CACHE_HOME: xdg() }));
    expect(first.length).toBeGreaterThan(0);
    // Read through the directory's descriptor, which is the checked directory whatever its name points to later.
    expect(first.filter((file) => !/^\/proc\/self\/fd\/\d+\//.test(file))).toEqual([]);
    expect(files(inXdg()).length).toBeGreaterThan(0);
    // The server's own code cache (src/code-cache.ts), by NODE_DEBUG: made by the first start, taken by the next.
    expect(
      files(inXdg()).filter((file) => /[\\/]server-[\w-]+\.cjs-\d+-\d+-v[\d.]+-\w+\.v8cache$/.test(file)),
    ).toHaveLength(1);
    const second = serveSandbox({ XDG_CACHE_HOME: xdg(), NODE_DEBUG: 'svc-platform-mcp' });
    expect(second).toMatch(/code cache for server-[\w-]+\.cjs: taken/);
    expect(second).toMatch(/was accepted/);
    untouched();
    // Nothing else under the temporary directory either: no private directory was needed there.
    expect(readdirSync(join(work, 'tmp'))).toEqual(['node-compile-cache']);
  });

  it.runIf(compileCache)(
    'takes an in-place edit of an installed file that keeps its length, not the cached code',
    () => {
      // An installed copy: the cache must notice a change of content, not only of size or name.
      const installed = join(work, 'install');
      fs.cpSync(join(CLI_PATH, '..'), join(installed, 'dist'), { recursive: true });
      const cli = join(installed, 'dist', 'cli.js');
      const version = (more: Record<string, string>) =>
        spawnSync(process.execPath, [cli, '--version'], {
          encoding: 'utf8',
          env: env({ NODE_DEBUG: 'svc-platform-mcp', ...more }),
        });
      const before = version({ XDG_CACHE_HOME: xdg() });
      const shown = before.stdout.trim();
      expect(version({ XDG_CACHE_HOME: xdg() }).stderr).toMatch(/code cache for server-[\w-]+\.cjs: taken/);
      const edited = shown.replace(/\d/g, (d) => String((Number(d) + 1) % 10));
      expect(edited).toHaveLength(shown.length);
      for (const entry of readdirSync(join(installed, 'dist'), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.c?js$/.test(entry.name)) continue;
        const file = join(entry.parentPath, entry.name);
        const text = fs.readFileSync(file, 'utf8');
        // The bundler writes the constant as a template literal.
        const literal = (v: string) => `\`${v}\``;
        if (text.includes(literal(shown))) fs.writeFileSync(file, text.replaceAll(literal(shown), literal(edited)));
      }
      const after = version({ XDG_CACHE_HOME: xdg() });
      expect(after.stdout).toBe(`${edited}\n`);
      expect(after.stderr).toMatch(/code cache for server-[\w-]+\.cjs: none/);
    },
  );

  it.runIf(compileCache)("where Node's default would have read the shared directory (what this file guards)", () => {
    const withDefault = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        [
          "import module from 'node:module';",
          'module.enableCompileCache();',
          "process.argv = [process.argv[0], 'svc-platform-mcp', '--version'];",
          `await import(${JSON.stringify(pathToFileURL(CLI_PATH).href)});`,
        ].join('\n'),
      ],
      { encoding: 'utf8', env: env({ XDG_CACHE_HOME: xdg() }) },
    );
    expect(read(withDefault.stderr).length).toBeGreaterThan(0);
    expect(read(withDefault.stderr).filter((file) => !file.startsWith(shared + '/'))).toEqual([]);
  });

  it.runIf(uid === 0)('keeps no cache in a home inside a directory another user may write to', () => {
    const theirs = join(work, 'theirs');
    mkdirSync(join(theirs, 'home'), { recursive: true, mode: 0o700 });
    chownSync(theirs, OTHER, OTHER);
    chmodSync(theirs, 0o777);
    start({ HOME: join(theirs, 'home') });
    expect(files(theirs)).toEqual([]);
    expect(files(inTmp()).length).toBeGreaterThan(0);
    untouched();
  });

  it('runs with no cache when no private directory will do, rather than in the shared one', () => {
    // Each candidate is a file, not a directory: the home, $XDG_CACHE_HOME and <tmpdir>/svc-platform-mcp-<uid>.
    const taken = [join(work, 'home'), xdg(), inTmp()];
    for (const file of taken) fs.writeFileSync(file, '');
    expect(read(start({ XDG_CACHE_HOME: xdg() }))).toEqual([]);
    expect(files(work).sort()).toEqual([...taken, join(shared, 'planted', 'entry')].sort());
  });

  it('writes no cache anywhere with NODE_DISABLE_COMPILE_CACHE=1', () => {
    expect(read(start({ XDG_CACHE_HOME: xdg(), NODE_DISABLE_COMPILE_CACHE: '1' }))).toEqual([]);
    expect(fs.existsSync(xdg())).toBe(false);
    expect(fs.existsSync(join(work, 'home'))).toBe(false);
    untouched();
  });

  it('gives stack traces of the sources with --enable-source-maps, as the chunks ship their maps in a clone', () => {
    // The server's one fatal path: stdout refuses the --version line, and the error's stack is printed.
    const failing = [
      "process.argv = [process.argv[0], 'svc-platform-mcp', '--version'];",
      "process.stdout.write = () => { throw new Error('stdout refused'); };",
      `await import(${JSON.stringify(pathToFileURL(CLI_PATH).href)});`,
    ].join('\n');
    const run = (...flags: string[]) =>
      spawnSync(process.execPath, [...flags, '--input-type=module', '-e', failing], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: join(work, 'home'), XDG_CACHE_HOME: xdg() },
      }).stderr;
    expect(run('--enable-source-maps')).toMatch(
      /fatal: Error: stdout refused\n.*\n\s+at main \(.*src[\\/]main\.ts:\d+:\d+\)/,
    );
    expect(run()).toMatch(/at [\w$]+ \(.*dist[\\/]chunks[\\/]server-[\w-]+\.cjs:\d+:\d+\)/);
  });
});
