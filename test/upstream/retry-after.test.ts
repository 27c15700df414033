/**
 * Retry-After as RFC 9110 defines it (delay-seconds or an HTTP-date, in any of its three forms); anything else is
 * ignored, so that the exchange's own backoff applies (issue 19: `-5` and `1.5` were read as dates in the past).
 */
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/upstream/retry-after.js';

const NOW = Date.parse('2026-11-23T00:00:00Z');

describe('Retry-After', () => {
  it.each([
    ['0', 0],
    ['2', 2000],
    [' 120 ', 120_000],
    // Not valid HTTP, but plainly seconds: honoured rather than retried sooner than asked.
    ['1.5', 1500],
    ['0.25', 250],
  ])('reads %j as seconds', (value, ms) => {
    expect(retryAfterMs(value, NOW)).toBe(ms);
  });

  it.each([
    ['IMF-fixdate', 'Mon, 23 Nov 2026 00:00:03 GMT', 3000],
    ['RFC 850, a two-digit year', 'Monday, 23-Nov-26 00:01:00 GMT', 60_000],
    ['asctime, a one-digit day', 'Sun Nov  6 08:49:37 1994', 0],
    ['a date in the past', 'Sun, 06 Nov 1994 08:49:37 GMT', 0],
  ])('reads an HTTP-date (%s)', (_, value, ms) => {
    expect(retryAfterMs(value, NOW)).toBe(ms);
  });

  it.each([
    '-5',
    '-0',
    '+3',
    '1.',
    '.5',
    '1e3',
    '0x10',
    'soon',
    'Infinity',
    '2026-11-23T00:00:03Z',
    'Mon, 31 Feb 2026 00:00:00 GMT',
    'Mon, 23 Nov 2026 25:00:00 GMT',
    'Mon, 23 Nov 2026 00:00:03 PST',
    '',
    undefined,
  ])('ignores %j', (value) => {
    expect(retryAfterMs(value, NOW)).toBeUndefined();
  });

  it('takes the first of repeated headers', () => {
    expect(retryAfterMs(['3', '10'], NOW)).toBe(3000);
  });
});
