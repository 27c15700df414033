import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../src/upstream/exact-json.js';
import { MAX_NESTING, parseJsonInSlices, TooDeep } from '../../src/upstream/sliced-json.js';

/** Counts the turns a parse gives back to the event loop. */
function counting() {
  const turns = { count: 0 };
  return { turns, pause: () => ((turns.count += 1), Promise.resolve()) };
}

const item = (i: number) => ({ productId: `p-${i}`, n: i, big: 'BIG', s: 'a "quoted" [x], {y}' });
const items = (count: number) => Array.from({ length: count }, (_, i) => item(i));

describe('parseJsonInSlices', () => {
  it.each([
    ['a long list of small items', () => JSON.stringify({ page: { total: 1, content: items(8000) } })],
    [
      'lists inside lists, spaced out',
      () => JSON.stringify({ a: [items(3000), items(3000)], b: items(2000) }, null, 2),
    ],
    [
      'a large object of many members',
      () => JSON.stringify(Object.fromEntries(items(8000).map((v, i) => [`k${i}`, v]))),
    ],
    ['a bare list at the root', () => JSON.stringify(items(8000))],
    ['one string of 1 MiB beside a list', () => JSON.stringify({ s: 'x'.repeat(1 << 20), l: items(4000) })],
    ['empty lists and objects among large ones', () => JSON.stringify({ e: [], o: {}, l: [[], {}, ...items(4000)] })],
  ])('reads %s as parseJsonExact does, in many turns', async (_, make) => {
    const text = make().replaceAll('"BIG"', '12345678901234567890');
    const { turns, pause } = counting();
    expect((await parseJsonInSlices(text, pause)).value).toEqual(parseJsonExact(text));
    expect(turns.count).toBeGreaterThan(3);
  });

  it('keeps a __proto__ member a member, as JSON.parse does', async () => {
    const text = `{"__proto__":{"polluted":1},"l":${JSON.stringify(items(4000))},"constructor":2}`.replaceAll(
      '"BIG"',
      '12345678901234567890',
    );
    const parsed = (await parseJsonInSlices(text, counting().pause)).value as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__', 'l', 'constructor']);
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(parseJsonExact(text)));
  });

  it.each([
    ['a trailing comma', (t: string) => t.replace(/\]\}$/, ',]}')],
    ['text after the value', (t: string) => `${t} x`],
    ['a missing bracket', (t: string) => t.slice(0, -1)],
    ['a broken item in the middle', (t: string) => t.replace('"p-2000"', '"p-2000" x')],
    ['brackets of the wrong kind', (t: string) => t.replace(/\]\}$/, '}}')],
  ])('throws what JSON.parse throws for %s', async (_, spoil) => {
    const text = spoil(JSON.stringify({ content: items(4000) }));
    const whole = (() => {
      try {
        parseJsonExact(text);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('expected JSON.parse to fail');
    })();
    await expect(parseJsonInSlices(text, counting().pause)).rejects.toThrow(whole);
  });

  it('keeps the first keepItems items of a long list, counts them all, and still finds broken JSON beyond', async () => {
    const list = items(9000);
    const text = JSON.stringify({ page: { total: 9000, content: list }, inner: [{ deep: list }] });
    const { value, counted } = await parseJsonInSlices(text, counting().pause, 100);
    expect(value).toEqual({
      page: { total: 9000, content: list.slice(0, 100) },
      inner: [{ deep: list.slice(0, 100) }],
    });
    // A list inside a list's item is never shown whole: only lists outside lists are counted, by their keys.
    expect(counted).toEqual([{ keys: ['page', 'content'], total: 9000 }]);
    const broken = text.replace('"p-8000"', '"p-8000" x');
    await expect(parseJsonInSlices(broken, counting().pause, 100)).rejects.toThrow(SyntaxError);
  });

  const lists = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  it.each([
    ['lists', lists],
    ['objects', (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`],
    ['a long answer', (depth: number) => `{"l":${JSON.stringify(items(4000))},"d":${lists(depth - 1)}}`],
  ])('reads %s nested as deep as MAX_NESTING, and refuses one level more, 5,000 and 100,000', async (_, nested) => {
    const kept = (await parseJsonInSlices(nested(MAX_NESTING), counting().pause)).value;
    expect(JSON.stringify(kept)).toBe(JSON.stringify(JSON.parse(nested(MAX_NESTING))));
    for (const depth of [MAX_NESTING + 1, 5_000, 100_000])
      await expect(parseJsonInSlices(nested(depth), counting().pause)).rejects.toThrow(TooDeep);
  });

  it('counts no bracket inside a string', async () => {
    const text = `["${'['.repeat(5000)}", {"k": "${'{'.repeat(5000)}"}]`;
    expect((await parseJsonInSlices(text, counting().pause)).value).toEqual(JSON.parse(text));
  });
});
