/** The memory of refused tokens: by the token exactly, for a while, and never more than its bound. */
import { describe, expect, it } from 'vitest';
import { RefusedTokens } from '../../../src/transports/oauth/refused-tokens.js';

describe('RefusedTokens', () => {
  it('knows a refused token again, and only that token', () => {
    const refused = new RefusedTokens({ now: () => 0 });
    refused.add('aaa.bbb.ccc', 'the token signature is invalid');
    expect(refused.reasonFor('aaa.bbb.ccc')).toBe('the token signature is invalid');
    expect(refused.reasonFor('aaa.bbb.ccd')).toBeUndefined();
    expect(refused.reasonFor('aaa.bbb.cc')).toBeUndefined();
  });

  it('forgets a token after keepMs', () => {
    let now = 0;
    const refused = new RefusedTokens({ keepMs: 1000, now: () => now });
    refused.add('t', 'expired');
    now = 999;
    expect(refused.reasonFor('t')).toBe('expired');
    now = 1000;
    expect(refused.reasonFor('t')).toBeUndefined();
  });

  it('holds at most maxTokens, the oldest dropped first, however many wrong tokens arrive', () => {
    let now = 0;
    const refused = new RefusedTokens({ maxTokens: 100, now: () => now });
    for (let i = 0; i < 10_000; i += 1) {
      now += 1;
      refused.add(`token-${i}`, 'the token signature is invalid');
    }
    expect(refused.size).toBe(100);
    expect(refused.reasonFor('token-9999')).toBeDefined();
    expect(refused.reasonFor('token-9900')).toBeDefined();
    expect(refused.reasonFor('token-9899')).toBeUndefined();
  });
});
