/**
 * The start-up of dist/cli.js: the server's file run through V8's code cache (src/code-cache.ts, src/bin.ts).
 */
import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { privateCacheDir, runWithCodeCache, saveSoon } from '../src/code-cache.js';
import { CLI_PATH } from './helpers/spawn-server.js';

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'code-cache-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** A CommonJS entry whose chunk, loaded later, requires the entry back (as the built server's chunks do). */
function writeModules(name: string): string {
  const entry = join(work, `${name}.cjs`);
  writeFileSync(
    entry,
    [
      'exports.token = { made: Date.now() };',
      `exports.later = () => require('./${name}-chunk.cjs');`,
      'exports.sum = (a, b) => a + b;',
      'exports.where = () => new Error().stack.split("\\n")[1];',
    ].join('\n'),
  );
  writeFileSync(join(work, `${name}-chunk.cjs`), `module.exports = require('./${name}.cjs').token;`);
  return entry;
}

describe('runWithCodeCache', () => {
  it('runs a CommonJS file as require would, registered first: a chunk that requires it back gets this instance', () => {
    const run = runWithCodeCache(writeModules('entry'), undefined);
    const exports = run.exports as { token: object; later(): object; sum(a: number, b: number): number };
    expect(exports.sum(2, 3)).toBe(5);
    expect(exports.later()).toBe(exports.token);
    expect(run.hit).toBe(false);
  });

  it("keeps the file's own line numbers in stack traces (the wrapper is on a line of its own)", () => {
    const run = runWithCodeCache(writeModules('lines'), undefined);
    expect((run.exports as { where(): string }).where()).toMatch(/lines\.cjs:4:\d+\)$/);
  });

  it('writes the cache on save and takes it on the next run (a refused cache: dist/cli.js below)', () => {
    const dir = join(work, 'cache');
    mkdirSync(dir, { mode: 0o700 });
    const entry = writeModules('cached');
    const first = runWithCodeCache(entry, dir);
    expect(first.hit).toBe(false);
    first.save();
    expect(readdirSync(dir)).toEqual([`cached.cjs-${process.version}-${process.arch}.v8cache`]);
    const second = runWithCodeCache(entry, dir);
    expect(second.hit).toBe(true);
    expect((second.exports as { sum(a: number, b: number): number }).sum(1, 1)).toBe(2);
  });

  it('writes once: a second save() (the timer after start, then exit) leaves the file as the first wrote it', () => {
    const dir = join(work, 'cache');
    mkdirSync(dir, { mode: 0o700 });
    const run = runWithCodeCache(writeModules('once'), dir);
    run.save();
    const [file] = readdirSync(dir);
    rmSync(join(dir, file!));
    run.save();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('runs without a cache where none can be written, and save() does not throw', () => {
    const run = runWithCodeCache(writeModules('nowhere'), join(work, 'missing', 'dir'));
    expect(run.hit).toBe(false);
    expect(() => run.save()).not.toThrow();
  });
});

describe('saveSoon', () => {
  afterEach(() => vi.useRealTimers());
  const cacheIn = () => {
    const dir = join(work, 'cache');
    mkdirSync(dir, { mode: 0o700 });
    return dir;
  };

  it('saves when the time has passed, once, and not again at exit', () => {
    vi.useFakeTimers();
    const dir = cacheIn();
    const owner = new EventEmitter();
    saveSoon(runWithCodeCache(writeModules('timed'), dir), 2_000, owner);
    vi.advanceTimersByTime(1_999);
    expect(readdirSync(dir)).toEqual([]);
    vi.advanceTimersByTime(1);
    const [file] = readdirSync(dir);
    expect(file).toMatch(/^timed\.cjs-/);
    rmSync(join(dir, file!));
    owner.emit('exit');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('saves at exit when the process ends first, and the timer then does nothing', () => {
    vi.useFakeTimers();
    const dir = cacheIn();
    const owner = new EventEmitter();
    saveSoon(runWithCodeCache(writeModules('early'), dir), 2_000, owner);
    owner.emit('exit');
    expect(readdirSync(dir)).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('privateCacheDir', () => {
  it('makes a directory only this user may enter, under the given root, and reuses it', () => {
    const dir = privateCacheDir(work);
    expect(dir).toBeDefined();
    expect(existsSync(dir!)).toBe(true);
    expect(privateCacheDir(work)).toBe(dir);
  });

  it.skipIf(process.platform === 'win32')('refuses a directory others may write to, or a link in its place', () => {
    const dir = privateCacheDir(work)!;
    chmodSync(dir, 0o777);
    expect(privateCacheDir(work)).toBeUndefined();
    rmSync(dir, { recursive: true });
    const elsewhere = join(work, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, dir);
    expect(privateCacheDir(work)).toBeUndefined();
  });
});

describe('dist/cli.js', () => {
  const start = (env: Record<string, string>) =>
    execFileSync(process.execPath, [CLI_PATH, '--version'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, TMPDIR: work, TEMP: work, TMP: work, ...env },
    });
  const caches = () =>
    readdirSync(work, { recursive: true })
      .filter((f) => String(f).endsWith('.v8cache'))
      .map(String);

  it("leaves the server's code cache in its private directory, and none with NODE_DISABLE_COMPILE_CACHE=1", () => {
    expect(start({ NODE_DISABLE_COMPILE_CACHE: '1' })).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(caches()).toEqual([]);
    expect(start({})).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(caches()).toEqual([
      expect.stringMatching(/^svc-platform-mcp-[^/]+\/server-[\w-]+\.cjs-v[\d.]+-\w+\.v8cache$/),
    ]);
  });

  it('starts from a cache V8 refuses (damaged, or of another build of V8) and writes a good one in its place', () => {
    start({});
    const file = join(work, caches()[0]!);
    const good = readFileSync(file);
    writeFileSync(file, Buffer.alloc(good.length, 7));
    expect(start({})).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(readFileSync(file).equals(Buffer.alloc(good.length, 7))).toBe(false);
    expect(readFileSync(file).length).toBeGreaterThan(100_000);
  });
});
