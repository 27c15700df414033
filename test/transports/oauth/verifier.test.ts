/**
 * The verifier as a whole, over a fake authorization server (documents by URL): discovery on the first token, a
 * failed discovery tried again after a pause, key rotation, the errors that make a 401 or a 503, access tokens
 * only, one encoding, and a wrong token refused again from memory.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeysUnavailable } from '../../../src/transports/oauth/jwks.js';
import { TokenError } from '../../../src/transports/oauth/jwt.js';
import { RefusedTokens } from '../../../src/transports/oauth/refused-tokens.js';
import { nonCanonical } from '../../helpers/jwt-mint.js';
import { AUDIENCE, ISSUER, NOW_MS, keyPair, setUp } from './fake-issuer.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('tokenVerifier', () => {
  it('discovers on the first token, then verifies from memory', async () => {
    const s = setUp();
    expect(s.asked).toEqual([]);
    await expect(s.verify(s.mint(s.published[0]!))).resolves.toMatchObject({ subject: 'alice', client: 'agent' });
    await s.verify(s.mint(s.published[0]!));
    expect(s.asked).toEqual([
      `${ISSUER}/.well-known/oauth-authorization-server`,
      `${ISSUER}/.well-known/openid-configuration`,
      `${ISSUER}/jwks`,
    ]);
    expect(s.logged).toEqual([
      { event: 'oauth_metadata_skipped', url: `${ISSUER}/.well-known/oauth-authorization-server`, why: 'HTTP 404' },
    ]);
  });

  it('answers "unavailable" (not "invalid") while the authorization server cannot be reached, logs it once, and recovers', async () => {
    const s = setUp();
    s.setDown(true);
    await expect(s.verify(s.mint(s.published[0]!))).rejects.toThrow(KeysUnavailable);
    const tried = s.asked.length;
    // A flood of tokens meanwhile does not become a flood of requests to the authorization server, nor of log lines.
    s.setDown(false);
    for (let i = 0; i < 20; i += 1) await expect(s.verify(s.mint(s.published[0]!))).rejects.toThrow(KeysUnavailable);
    expect(s.asked).toHaveLength(tried);
    expect(s.logged.filter((l) => l.event === 'oauth_keys_unavailable')).toEqual([
      {
        event: 'oauth_keys_unavailable',
        why: 'cannot discover the authorization server: connection refused',
      },
    ]);
    s.advance(5000);
    await expect(s.verify(s.mint(s.published[0]!))).resolves.toMatchObject({ subject: 'alice' });
  });

  it('accepts a rotated key once the minute since the last fetch has passed', async () => {
    // jose's key set keeps its own time (Date.now).
    vi.useFakeTimers({ toFake: ['Date'], now: NOW_MS });
    const s = setUp();
    await s.verify(s.mint(s.published[0]!));
    const next = keyPair('k2');
    s.published.push(next);
    // Within the minute of the last fetch: not looked for again.
    await expect(s.verify(s.mint(next))).rejects.toThrow(/does not publish/);
    vi.advanceTimersByTime(60_000);
    s.advance(60_000);
    await expect(s.verify(s.mint(next))).resolves.toMatchObject({ subject: 'alice' });
    expect(s.asked.filter((url) => url.endsWith('/jwks'))).toHaveLength(2);
  });

  it('keeps the keys it has when a refresh fails', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW_MS });
    const s = setUp();
    await s.verify(s.mint(s.published[0]!));
    vi.advanceTimersByTime(60 * 60_000);
    s.advance(60 * 60_000);
    s.setDown(true);
    await expect(s.verify(s.mint(s.published[0]!))).resolves.toMatchObject({ subject: 'alice' });
    await expect(s.verify(s.mint(s.published[0]!))).resolves.toMatchObject({ subject: 'alice' });
    expect(s.logged.filter((l) => l.event === 'oauth_keys_unavailable')).toHaveLength(1);
  });

  it('refuses a key the issuer does not publish, a forged signature and a token for another audience', async () => {
    const s = setUp();
    const stranger = keyPair('k1');
    await expect(s.verify(s.mint(keyPair('other')))).rejects.toThrow(/does not publish/);
    await expect(s.verify(s.mint(stranger))).rejects.toThrow(/signature is invalid/);
    await expect(s.verify(s.mint(s.published[0]!, { aud: 'https://other.example.com' }))).rejects.toThrow(/aud/);
  });

  it('takes access tokens only (RFC 9068 typ): an ID token, a logout token or a bare JWT is refused', async () => {
    const s = setUp();
    const key = s.published[0]!;
    await expect(s.verify(s.mint(key, {}, 'application/at+jwt'))).resolves.toMatchObject({ subject: 'alice' });
    await expect(s.verify(s.mint(key, {}, 'AT+JWT'))).resolves.toMatchObject({ subject: 'alice' });
    for (const typ of ['JWT', 'logout+jwt', 'application/jwt', null]) {
      await expect(s.verify(s.mint(key, {}, typ)), String(typ)).rejects.toThrow(/not an access token \(typ/);
    }
    // An ID token as an OpenID provider issues it: typ JWT, the client as audience, a nonce.
    const idToken = s.mint(key, { aud: AUDIENCE, nonce: 'n-0S6_WzA2Mj', auth_time: NOW_MS / 1000 }, 'JWT');
    await expect(s.verify(idToken)).rejects.toThrow(/typ/);
  });

  it('takes one encoding: a signature with stray bits or padding is refused, though its bytes are the good ones', async () => {
    const s = setUp();
    const good = s.mint(s.published[0]!);
    await expect(s.verify(good)).resolves.toMatchObject({ subject: 'alice' });
    for (const how of ['trailing-bits', 'padding'] as const) {
      const spelled = nonCanonical(good, how);
      expect(Buffer.from(spelled.split('.')[2]!, 'base64url')).toEqual(Buffer.from(good.split('.')[2]!, 'base64url'));
      await expect(s.verify(spelled), how).rejects.toThrow(/canonical base64url/);
    }
  });

  it('refuses a token refused once again from memory, unchecked, until the keys change', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW_MS });
    const refused = new RefusedTokens({ now: () => NOW_MS });
    const s = setUp({ refused });
    const good = s.mint(s.published[0]!);
    // Signed by a key that is not the issuer's, under the kid of the issuer's key: a bad signature.
    const impostor = keyPair('k1');
    const forged = s.mint(impostor);
    await expect(s.verify(forged)).rejects.toThrow(/signature is invalid/);
    expect(refused.reasonFor(forged)).toBe('the token signature is invalid');
    expect(refused.reasonFor(good)).toBeUndefined();
    // What is in memory is refused without a look: the sender's own token only, as nobody else holds it.
    refused.add(good, 'the token has expired');
    await expect(s.verify(good)).rejects.toThrow(/expired/);
    // The issuer now publishes that key under the same kid (a kid reused for a new key): once the set is fetched
    // again, what the old key refused is looked at afresh.
    s.published.splice(0, 1, impostor);
    vi.advanceTimersByTime(60_000);
    s.advance(60_000);
    await expect(s.verify(s.mint(keyPair('k0')))).rejects.toThrow(/does not publish/);
    expect(s.asked.filter((url) => url.endsWith('/jwks'))).toHaveLength(2);
    expect(refused.size).toBe(0);
    await expect(s.verify(forged)).resolves.toMatchObject({ subject: 'alice' });
  });

  it('does not hold a key it does not have yet against a token (key rotation)', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW_MS });
    const s = setUp();
    await s.verify(s.mint(s.published[0]!));
    const next = keyPair('k2');
    const early = s.mint(next);
    await expect(s.verify(early)).rejects.toThrow(/does not publish/);
    s.published.push(next);
    vi.advanceTimersByTime(60_000);
    s.advance(60_000);
    await expect(s.verify(early)).resolves.toMatchObject({ subject: 'alice' });
  });

  it('checks the issuer exactly and the lifetime with 60 s of skew', async () => {
    const s = setUp();
    const key = s.published[0]!;
    const now = s.now() / 1000;
    await expect(s.verify(s.mint(key, { iss: `${ISSUER}/` }))).rejects.toThrow(/another issuer/);
    await expect(s.verify(s.mint(key, { exp: now - 59 }))).resolves.toMatchObject({ subject: 'alice' });
    await expect(s.verify(s.mint(key, { exp: now - 60 }))).rejects.toThrow(/expired/);
    await expect(s.verify(s.mint(key, { exp: undefined }))).rejects.toThrow(/exp/);
    await expect(s.verify(s.mint(key, { exp: '9999999999' }))).rejects.toThrow(/exp/);
    await expect(s.verify(s.mint(key, { nbf: now + 60 }))).resolves.toMatchObject({ subject: 'alice' });
    await expect(s.verify(s.mint(key, { nbf: now + 61 }))).rejects.toThrow(/not valid yet/);
    await expect(s.verify(s.mint(key, { sub: '' }))).rejects.toThrow(/sub/);
    await expect(s.verify(s.mint(key, { sub: undefined }))).rejects.toThrow(/sub/);
    await expect(s.verify(s.mint(key, { sub: 42 }))).rejects.toThrow(TokenError);
  });
});
