/**
 * The verifier as a whole, over a fake authorization server (documents by URL): discovery on the first token, a
 * failed discovery tried again by the next, key rotation, and the errors that make a 401 or a 503.
 */
import { describe, expect, it } from 'vitest';
import { generateKeyPairSync, sign } from 'node:crypto';
import { KeysUnavailable } from '../../../src/transports/oauth/jwks.js';
import { TokenError } from '../../../src/transports/oauth/jwt.js';
import { tokenVerifier } from '../../../src/transports/oauth/verifier.js';

const ISSUER = 'https://sso.example.com';
const AUDIENCE = 'https://mcp.example.com/mcp';
const NOW_MS = 1_800_000_000_000;
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

function keyPair(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' } };
}
type Key = ReturnType<typeof keyPair>;

function mint(key: Key, claims: Record<string, unknown> = {}) {
  const input = `${b64({ alg: 'ES256', kid: key.jwk.kid })}.${b64({
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'alice',
    client_id: 'agent',
    scope: 'svc.read',
    exp: NOW_MS / 1000 + 300,
    ...claims,
  })}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

function setUp() {
  const published: Key[] = [keyPair('k1')];
  const asked: string[] = [];
  let down = false;
  let now = NOW_MS;
  const verify = tokenVerifier({
    issuer: ISSUER,
    audience: AUDIENCE,
    now: () => now,
    fetchJson: async (url) => {
      asked.push(url);
      if (down) throw new Error('connection refused');
      if (url === `${ISSUER}/.well-known/openid-configuration`) return { issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` };
      if (url === `${ISSUER}/jwks`) return { keys: published.map((k) => k.jwk) };
      return undefined;
    },
  });
  return { verify, published, asked, setDown: (d: boolean) => (down = d), advance: (ms: number) => (now += ms) };
}

describe('tokenVerifier', () => {
  it('discovers on the first token, then verifies from memory', async () => {
    const s = setUp();
    expect(s.asked).toEqual([]);
    await expect(s.verify(mint(s.published[0]!))).resolves.toMatchObject({ subject: 'alice', client: 'agent' });
    await s.verify(mint(s.published[0]!));
    expect(s.asked).toEqual([
      `${ISSUER}/.well-known/oauth-authorization-server`,
      `${ISSUER}/.well-known/openid-configuration`,
      `${ISSUER}/jwks`,
    ]);
  });

  it('answers "unavailable" (not "invalid") while the authorization server cannot be reached, and recovers', async () => {
    const s = setUp();
    s.setDown(true);
    await expect(s.verify(mint(s.published[0]!))).rejects.toThrow(KeysUnavailable);
    const tried = s.asked.length;
    // A flood of tokens meanwhile does not become a flood of requests to the authorization server.
    s.setDown(false);
    for (let i = 0; i < 20; i += 1) await expect(s.verify(mint(s.published[0]!))).rejects.toThrow(KeysUnavailable);
    expect(s.asked).toHaveLength(tried);
    s.advance(5000);
    await expect(s.verify(mint(s.published[0]!))).resolves.toMatchObject({ subject: 'alice' });
  });

  it('accepts a rotated key once the minute since the last fetch has passed', async () => {
    const s = setUp();
    await s.verify(mint(s.published[0]!));
    const next = keyPair('k2');
    s.published.push(next);
    // Within the minute of the last fetch: not looked for again.
    await expect(s.verify(mint(next))).rejects.toThrow(/does not publish/);
    s.advance(60_000);
    await expect(s.verify(mint(next))).resolves.toMatchObject({ subject: 'alice' });
    expect(s.asked.filter((url) => url.endsWith('/jwks'))).toHaveLength(2);
  });

  it('refuses a key the issuer does not publish, a forged signature and a token for another audience', async () => {
    const s = setUp();
    const stranger = keyPair('k1');
    await expect(s.verify(mint(keyPair('other')))).rejects.toThrow(/does not publish/);
    await expect(s.verify(mint(stranger))).rejects.toThrow(/signature is invalid/);
    await expect(s.verify(mint(s.published[0]!, { aud: 'https://other.example.com' }))).rejects.toThrow(TokenError);
  });
});
