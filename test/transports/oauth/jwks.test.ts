/** The key set as fetched: only public signing keys kept, and a set without any says so in the log. */
import { describe, expect, it } from 'vitest';
import { setUp } from './fake-issuer.js';

describe('issuer keys', () => {
  it('keeps the public members of a key published with its private ones, and leaves symmetric keys out', async () => {
    const s = setUp();
    const key = s.published[0]!;
    const privateJwk = key.privateKey.export({ format: 'jwk' });
    s.published.splice(0, 1, { ...key, jwk: { ...privateJwk, kid: 'k1', use: 'sig' } });
    await expect(s.verify(s.mint(key))).resolves.toMatchObject({ subject: 'alice' });
    expect(s.logged.filter((l) => l.event === 'oauth_keys_unusable')).toEqual([]);
  });

  it('says in the log why no token can pass when the key set has no public signing key', async () => {
    const s = setUp();
    const key = s.published[0]!;
    s.published.splice(0, 1, { ...key, jwk: { ...key.jwk, use: 'enc' } });
    s.published.push({ ...key, jwk: { kty: 'oct', k: 'c2VjcmV0', kid: 'k2' } });
    await expect(s.verify(s.mint(key))).rejects.toThrow(/does not publish/);
    expect(s.logged.filter((l) => l.event === 'oauth_keys_unusable')).toEqual([
      {
        event: 'oauth_keys_unusable',
        url: 'https://sso.example.com/jwks',
        why: 'no public signing key among the 1 published',
      },
    ]);
  });
});
