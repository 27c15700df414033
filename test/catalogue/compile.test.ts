import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/catalogue.js';
import { compileOperation } from '../../src/catalogue/compile.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const FLAGS = [
  'streamingRegion',
  'arrayResultKey',
  'mayAnswerText',
  'envelope',
  'upperCase',
  'paging',
  'confirmation',
  'integerFields',
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('the named flags of a catalogue entry', () => {
  it('are read in one place: compile.ts turns them into behaviour, the stages read no flag', () => {
    const readers = sources(SRC)
      .map((file) => relative(SRC, file))
      // The catalogue declares the flags; the sandbox stands in for the platform and takes its tables from it.
      .filter(
        (file) =>
          !file.startsWith('catalogue/') && !file.startsWith('sandbox/') && file !== join('catalogue', 'compile.ts'),
      )
      .filter((file) => new RegExp(`\\bop\\.(${FLAGS.join('|')})\\b`).test(readFileSync(join(SRC, file), 'utf8')));
    expect(readers).toEqual([]);
  });

  it('mean what the spec says for the entries that carry them', () => {
    const compiled = (defaultRegion: 'KR' | 'JPN') =>
      Object.fromEntries(CATALOGUE.map((op) => [op.id, compileOperation(op, { defaultRegion })]));
    const byId = compiled('KR');
    expect(byId.E1!.pathValue('region', { region: 'SGN' })).toBe('sgn-v1');
    expect(compiled('JPN').E2!.pathValue('region', {})).toBe('jpn-v1');
    expect(byId.E2!.notSent).toEqual(new Set(['region']));
    expect(byId.E3!.pathValue('region', { region: 'SGN' })).toBeUndefined();
    expect(byId.E5!.answersText).toBe(true);
    expect(byId.E5!.accept).toBe('*/*');
    expect(byId.E3!.accept).toBe('application/json');
    const args = { sourcecrs: 'epsg:4326', coords: '1,2' };
    byId.E5!.normalise(args);
    expect(args).toEqual({ sourcecrs: 'EPSG:4326', coords: '1,2' });
    expect(byId.E14!.asObject([1])).toEqual({ languages: [1] });
    expect(byId.E15!.envelope).toMatchObject({ kind: 'code-success', path: ['code'], values: ['SUCCESS'] });
    expect(byId.E11!.confirmation?.id({ serviceId: 's-1' })).toBe('s-1');
    expect(byId.E15!.addedArguments).toEqual({ dryRun: true, confirm: 'keyTag' });
    expect(byId.E7!.addedArguments).toEqual({ dryRun: false });
    // Every item left out, as 64-bit offsets where the call gave one.
    expect(byId.E7!.paging!({ offset: '9007199254740993', limit: 10 }, { shown: 3, total: 10 })).toBe(
      'ask with offset 9007199254740996 and limit 7 (offsets 9007199254740996-9007199254741002), or, as fewer may fit ' +
        'in one result, with limit 3 at offsets 9007199254740996, 9007199254740999, … through 9007199254741002',
    );
    // E1 pages by pageNo: the pages named start at the first item left out (computed by hand: 2226 = 14 × 159).
    expect(byId.E1!.paging!({ pageNo: 1, pageSize: 2000 }, { shown: 226, total: 2000 })).toBe(
      'ask with pageSize 226 and pageNo 2 to 9 (items 227-2000; pageNo 2 with pageSize 2000 would skip them)',
    );
    expect(byId.E1!.paging!({ pageNo: 2, pageSize: 2000 }, { shown: 226, total: 2000 })).toBe(
      'ask with pageSize 159 and pageNo 15 to 26 (items 2227-4000; pageNo 3 with pageSize 2000 would skip them)',
    );
    expect([byId.E7!.effect, byId.E4!.effect, byId.E11!.effect, byId.E15!.effect]).toEqual([
      'read',
      'write',
      'destroy',
      'destroy',
    ]);
    expect([byId.E4!.repeatable, byId.E8!.repeatable, byId.E11!.repeatable, byId.E12!.repeatable]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(byId.E11!.pathParams).toEqual(['serviceId']);
  });

  it('leave no per-operation or per-schema cache at module level: every fact lives on the compiled object', () => {
    const modules = sources(SRC).filter((file) => !file.includes(`${join('src', 'sandbox')}`));
    const caches = modules.filter((file) =>
      /^(?:const|let) \w+ = new (?:WeakMap|Map)<(?:AnyOperation|Operation|CompiledOperation|z\.Zod\w*)/m.test(
        readFileSync(file, 'utf8'),
      ),
    );
    expect(caches).toEqual([]);
  });
});
