import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/catalogue.js';
import { decorate } from '../../src/catalogue/compile.js';

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
  it('are read in one place: the pipeline stages call decorate() and read no flag', () => {
    const readers = sources(SRC)
      .map((file) => relative(SRC, file))
      // The catalogue declares the flags; the sandbox stands in for the platform and takes its tables from it.
      .filter(
        (file) =>
          !file.startsWith('catalogue/') && !file.startsWith('sandbox/') && file !== join('gateway', 'decorate.ts'),
      )
      .filter((file) => new RegExp(`\\bop\\.(${FLAGS.join('|')})\\b`).test(readFileSync(join(SRC, file), 'utf8')));
    expect(readers).toEqual([]);
  });

  it('mean what the spec says for the entries that carry them', () => {
    const byId = Object.fromEntries(CATALOGUE.map((op) => [op.id, decorate(op)]));
    expect(byId.E1!.pathValue('region', { region: 'SGN' }, 'KR')).toBe('sgn-v1');
    expect(byId.E2!.pathValue('region', {}, 'JPN')).toBe('jpn-v1');
    expect(byId.E2!.notSent).toEqual(new Set(['region']));
    expect(byId.E3!.pathValue('region', { region: 'SGN' }, 'KR')).toBeUndefined();
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
    expect(byId.E7!.paging).toMatch(/offset and limit/);
  });
});
