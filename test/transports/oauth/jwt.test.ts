/**
 * JWT checks of OAuth mode: each accepted algorithm against a signature made by node:crypto's own signer (the test's,
 * not the code under test) through the whole verifier, the algorithms never accepted, keys used only for their
 * algorithm, the one encoding, and the claims that say who calls.
 */
import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { TokenError, checkEncoding, claimsOf } from '../../../src/transports/oauth/jwt.js';
import { unsignedJwt, type MintAlg } from '../../helpers/jwt-mint.js';
import { AUDIENCE, keyPair, setUp } from './fake-issuer.js';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const ALGS: MintAlg[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

describe('signatures', () => {
  it.each(ALGS)('verifies %s with its key, and refuses a changed payload', async (alg) => {
    const s = setUp();
    const key = keyPair('k1', alg);
    s.published.splice(0, 1, key);
    const token = s.mint(key);
    await expect(s.verify(token)).resolves.toMatchObject({ subject: 'alice' });
    const [head, , sig] = token.split('.');
    const changed = `${head}.${b64({ iss: 'x', sub: 'mallory' })}.${sig}`;
    await expect(s.verify(changed)).rejects.toThrow(/signature is invalid/);
  });

  it('uses a key that declares its algorithm for that one only, and no encryption key', async () => {
    const rsa = keyPair('k1', 'RS256');
    const as = (jwk: Record<string, unknown>) => {
      const s = setUp();
      s.published.splice(0, 1, { ...rsa, jwk: { ...rsa.jwk, ...jwk } });
      return s.verify(s.mint(rsa));
    };
    await expect(as({ alg: 'RS256' })).resolves.toMatchObject({ subject: 'alice' });
    await expect(as({ alg: 'PS256' })).rejects.toThrow(/does not publish/);
    await expect(as({ use: 'enc' })).rejects.toThrow(/does not publish/);
    // An ES256 token cannot be checked with an RSA key under its kid.
    const s = setUp();
    s.published.splice(0, 1, rsa);
    await expect(s.verify(s.mint(keyPair('k1', 'ES256')))).rejects.toThrow(/does not publish/);
  });

  it('refuses none, the HMAC algorithms and unknown ones before any key is looked at', async () => {
    const s = setUp();
    for (const alg of ['none', 'HS256', 'HS384', 'HS512', 'RS1', 'ES256K', 'constructor']) {
      const token = `${b64({ alg, typ: 'at+jwt', kid: 'k1' })}.${b64({ sub: 'alice' })}.${alg === 'none' ? '' : 'c2ln'}`;
      await expect(s.verify(token), alg).rejects.toThrow(/algorithm is not accepted/);
    }
    await expect(s.verify(unsignedJwt({ sub: 'alice' }, 'k1'))).rejects.toThrow(/not accepted/);
    expect(s.asked).toEqual([]);
  });

  it('never makes a symmetric key of a JWKS entry (an HS256 token signed with the public key as secret)', async () => {
    const s = setUp();
    s.published.push({ ...keyPair('k2'), jwk: { kty: 'oct', k: 'c2VjcmV0', kid: 'k2' } });
    const input = `${b64({ alg: 'HS256', typ: 'at+jwt', kid: 'k1' })}.${b64({ sub: 'alice' })}`;
    const mac = createHmac('sha256', JSON.stringify(s.published[0]!.jwk)).update(input).digest('base64url');
    await expect(s.verify(`${input}.${mac}`)).rejects.toThrow(/not accepted/);
    const secret = createHmac('sha256', Buffer.from('secret')).update(input.replace('k1', 'k2')).digest('base64url');
    await expect(s.verify(`${input.replace('k1', 'k2')}.${secret}`)).rejects.toThrow(TokenError);
  });

  it('refuses what is not a compact JWS, and critical extensions', async () => {
    const s = setUp();
    for (const token of ['abc', 'a.b', 'a.b.c.d', `${b64({ alg: 'ES256' })}.${b64({})}.a+b`, '!.!.!']) {
      await expect(s.verify(token), token).rejects.toThrow(TokenError);
    }
    const crit = `${b64({ alg: 'ES256', typ: 'at+jwt', kid: 'k1', crit: ['x'], x: 1 })}.${b64({ sub: 'a' })}.c2ln`;
    await expect(s.verify(crit)).rejects.toThrow(/does not support/);
  });
});

describe('checkEncoding', () => {
  it('takes canonical base64url only', () => {
    expect(() => checkEncoding('eyJh.eyJi.AAAA')).not.toThrow();
    expect(() => checkEncoding('eyJh.eyJi.')).not.toThrow();
    // "AB" and "AA" decode to the same single byte; only "AA" is its spelling.
    expect(() => checkEncoding('eyJh.eyJi.AB')).toThrow(/canonical/);
    expect(() => checkEncoding('eyJh.eyJi.AA==')).toThrow(/canonical/);
    expect(() => checkEncoding('eyJh.eyJi.A')).toThrow(/canonical/);
    expect(() => checkEncoding('eyJh.eyJi.a+b/')).toThrow(/canonical/);
    expect(() => checkEncoding('eyJh.eyJi')).toThrow(/three/);
  });
});

describe('claimsOf', () => {
  const good = { aud: AUDIENCE, sub: 'alice', exp: 1_800_000_300, scope: 'svc.read svc.write' };

  it('gives the subject, the client and the scopes of a good token', () => {
    const payload = { ...good, client_id: 'agent', azp: 'other' };
    expect(claimsOf(payload, AUDIENCE)).toEqual({
      subject: 'alice',
      client: 'agent',
      scopes: ['svc.read', 'svc.write'],
      expiresAt: 1_800_000_300,
      // All of them, for the credential profile a claim picks.
      claims: payload,
    });
    expect(claimsOf({ ...good, azp: 'kc-client' }, AUDIENCE).client).toBe('kc-client');
    expect(claimsOf({ ...good, scope: undefined, scp: ['svc.read'] }, AUDIENCE).scopes).toEqual(['svc.read']);
    expect(claimsOf({ ...good, scope: undefined, scp: 'svc.destructive' }, AUDIENCE).scopes).toEqual([
      'svc.destructive',
    ]);
    expect(claimsOf({ ...good, scope: undefined }, AUDIENCE).scopes).toEqual([]);
  });

  it('takes an audience list that contains our URL, a trailing slash or the case of the host aside', () => {
    expect(() => claimsOf({ ...good, aud: ['https://other.example.com', AUDIENCE] }, AUDIENCE)).not.toThrow();
    expect(() => claimsOf({ ...good, aud: 'https://MCP.example.com/mcp/' }, AUDIENCE)).not.toThrow();
    expect(() => claimsOf({ ...good, aud: 'https://mcp.example.com/mcp2' }, AUDIENCE)).toThrow(/aud/);
    expect(() => claimsOf({ ...good, aud: ['https://mcp.example.com'] }, AUDIENCE)).toThrow(/aud/);
    expect(() => claimsOf({ ...good, aud: undefined }, AUDIENCE)).toThrow(/aud/);
  });

  it('wants a subject', () => {
    expect(() => claimsOf({ ...good, sub: '' }, AUDIENCE)).toThrow(/sub/);
    expect(() => claimsOf({ ...good, sub: 42 }, AUDIENCE)).toThrow(/sub/);
  });
});
