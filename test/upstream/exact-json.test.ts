import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../src/upstream/exact-json.js';
import { growthFactor, LINEAR } from '../helpers/cost.js';

describe('parseJsonExact', () => {
  it('hands integers beyond 2^53-1 on as their exact digits', () => {
    expect(
      parseJsonExact('{"total":12345678901234567890,"initialCount":9007199254740993,"low":-9223372036854775808}'),
    ).toEqual({
      total: '12345678901234567890',
      initialCount: '9007199254740993',
      low: '-9223372036854775808',
    });
  });

  it('keeps every safe integer a number, 2^53-1 included, and 2^53 itself exact as digits', () => {
    expect(parseJsonExact('[9007199254740991,-9007199254740991,1234567890123456,9007199254740992]')).toEqual([
      9007199254740991,
      -9007199254740991,
      1234567890123456,
      '9007199254740992',
    ]);
  });

  it('leaves strings, and Floats a double holds, as JSON.parse reads them', () => {
    const text =
      '{"id":"12345678901234567890","s":"a\\"1e400 12345678901234567890.5","e":1.5e300,"p":0.30000000000000004,' +
      '"c":127.1054315,"one":1.0,"h":100.000,"E":1E2,"z":-0.0,"zz":0e500,"d":5e-324,"max":1.7976931348623157e308}';
    expect(parseJsonExact(text)).toEqual(JSON.parse(text));
  });

  // Issue 33, point 8: each of these came back another number (rounded, or Infinity that JSON writes as null).
  it('hands a number a double does not hold on exact, as a string: an integral one as its digits, as integers', () => {
    expect(
      parseJsonExact(
        '[9223372036854775807.0,-9007199254740993.000,1e400,-1E+400,1e-400,127.12345678901234567,' +
          '12345678901234567890.5,12345678901234567890e2,9007199254740992.0]',
      ),
    ).toEqual([
      '9223372036854775807',
      '-9007199254740993',
      '1e400',
      '-1E+400',
      '1e-400',
      '127.12345678901234567',
      '12345678901234567890.5',
      '12345678901234567890e2',
      '9007199254740992',
    ]);
  });

  it('finds long integers in arrays, after escapes and at the end of the text', () => {
    expect(parseJsonExact('["\\\\",99999999999999999999]')).toEqual(['\\', '99999999999999999999']);
    expect(parseJsonExact('99999999999999999999')).toBe('99999999999999999999');
  });

  it('reports broken JSON as JSON.parse does', () => {
    expect(() => parseJsonExact('{"total":12345678901234567890')).toThrow(SyntaxError);
  });

  // Bounded: one pass over the text. The largest answer read is SVC_MAX_RESPONSE_BYTES (4 MiB by default); one made
  // only of long integers is the slow path's worst case.
  it('reads a 4 MiB answer of long integers in one linear pass', async () => {
    const item = '12345678901234567890,';
    const answer = (size: number) => `[${item.repeat(Math.floor(size / item.length))}1]`;
    const value = parseJsonExact(answer(4 * 1024 * 1024)) as unknown[];
    expect(value[0]).toBe('12345678901234567890');
    expect(value.at(-1)).toBe(1);
    expect(await growthFactor(answer, parseJsonExact, 4 * 1024 * 1024, 3)).toBeLessThan(LINEAR);
  });
});
