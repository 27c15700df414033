/** The key set cache: fetched once, refetched for an unknown kid at most once a minute, kept through a failed fetch. */
import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { JwksCache, KeysUnavailable, keysOf } from '../../../src/transports/oauth/jwks.js';

const jwk = (kid: string) => ({
  ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }),
  kid,
  alg: 'ES256',
});

/** A key server whose set the test changes, counting fetches; a clock the test moves. */
function setUp(initial: string[], minRetryMs?: number) {
  const keys = new Map(initial.map((kid) => [kid, jwk(kid)]));
  let fetches = 0;
  let failing = false;
  let now = 1_000_000;
  const cache = new JwksCache({
    fetchKeys: async () => {
      fetches += 1;
      if (failing) throw new Error('connection refused');
      return { keys: [...keys.values()] };
    },
    now: () => now,
    minRetryMs,
  });
  return {
    cache,
    fetches: () => fetches,
    rotate: (kid: string) => keys.set(kid, jwk(kid)),
    fail: (on: boolean) => (failing = on),
    advance: (ms: number) => (now += ms),
    kids: async (kid: string | undefined) => (await cache.candidates(kid, 'ES256')).map((k) => k.jwk.kid),
  };
}

describe('JwksCache', () => {
  it('fetches once, and serves known kids from memory', async () => {
    const s = setUp(['a', 'b']);
    expect(await s.kids('a')).toEqual(['a']);
    expect(await s.kids('b')).toEqual(['b']);
    expect(await s.kids(undefined)).toEqual(['a', 'b']);
    expect(s.fetches()).toBe(1);
  });

  it('shares one fetch among requests that arrive together', async () => {
    const s = setUp(['a']);
    await Promise.all([s.kids('a'), s.kids('a'), s.kids('a')]);
    expect(s.fetches()).toBe(1);
  });

  it('refetches for an unknown kid at most once a minute, however many arrive', async () => {
    const s = setUp(['a']);
    await s.kids('a');
    s.advance(60_000);
    s.rotate('new');
    expect(await s.kids('new')).toEqual(['new']);
    expect(s.fetches()).toBe(2);
    for (let i = 0; i < 50; i += 1) expect(await s.kids(`made-up-${i}`)).toEqual([]);
    expect(s.fetches()).toBe(2);
    s.advance(59_999);
    expect(await s.kids('made-up')).toEqual([]);
    expect(s.fetches()).toBe(2);
    s.advance(1);
    expect(await s.kids('made-up')).toEqual([]);
    expect(s.fetches()).toBe(3);
  });

  it('fetches again once the set is an hour old, and keeps the old keys when that fails', async () => {
    const s = setUp(['a']);
    await s.kids('a');
    s.advance(60 * 60_000);
    s.fail(true);
    expect(await s.kids('a')).toEqual(['a']);
    expect(s.fetches()).toBe(2);
  });

  it('says the keys are unavailable when it has none and cannot fetch them', async () => {
    const s = setUp(['a']);
    s.fail(true);
    await expect(s.kids('a')).rejects.toThrow(KeysUnavailable);
    s.fail(false);
    expect(await s.kids('a')).toEqual(['a']);
  });

  it('leaves out what is no usable public key', () => {
    const keys = keysOf({ keys: [{ kty: 'oct', k: 'c2VjcmV0' }, { kty: 'RSA', n: '!!' }, null, 'x', jwk('ok')] });
    expect(keys.map((k) => k.jwk.kid)).toEqual(['ok']);
    expect(() => keysOf({})).toThrow(/keys/);
  });

  it('waits before trying again while it has no keys, when told to', async () => {
    const s = setUp(['a'], 5000);
    s.fail(true);
    await expect(s.kids('a')).rejects.toThrow(KeysUnavailable);
    s.fail(false);
    await expect(s.kids('a')).rejects.toThrow(KeysUnavailable);
    expect(s.fetches()).toBe(1);
    s.advance(5000);
    expect(await s.kids('a')).toEqual(['a']);
    expect(s.fetches()).toBe(2);
  });
});
