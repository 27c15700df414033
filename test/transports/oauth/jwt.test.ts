/**
 * JWT checks of OAuth mode: each accepted algorithm against a signature made by node:crypto's own signer (the test's,
 * not the code under test), the algorithms never accepted, keys used only for their algorithm, and the claims at
 * the edges of the clock skew.
 */
import { describe, expect, it } from 'vitest';
import { constants, createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import {
  TokenError,
  algorithmOf,
  checkClaims,
  parseToken,
  signatureValid,
  verificationKey,
  type Jwk,
} from '../../../src/transports/oauth/jwt.js';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const PAYLOAD = { sub: 'alice' };

interface Case {
  alg: string;
  keys: () => { privateKey: KeyObject; publicKey: KeyObject };
  sign: (data: Buffer, key: KeyObject) => Buffer;
}
const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = (namedCurve: string) => () => generateKeyPairSync('ec', { namedCurve });
const pkcs1 = (hash: string) => (data: Buffer, key: KeyObject) => sign(hash, data, key);
const pss = (hash: string, saltLength: number) => (data: Buffer, key: KeyObject) =>
  sign(hash, data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength });
const ecdsa = (hash: string) => (data: Buffer, key: KeyObject) => sign(hash, data, { key, dsaEncoding: 'ieee-p1363' });
const CASES: Case[] = [
  { alg: 'RS256', keys: rsa, sign: pkcs1('sha256') },
  { alg: 'RS384', keys: rsa, sign: pkcs1('sha384') },
  { alg: 'RS512', keys: rsa, sign: pkcs1('sha512') },
  { alg: 'PS256', keys: rsa, sign: pss('sha256', 32) },
  { alg: 'PS384', keys: rsa, sign: pss('sha384', 48) },
  { alg: 'PS512', keys: rsa, sign: pss('sha512', 64) },
  { alg: 'ES256', keys: ec('P-256'), sign: ecdsa('sha256') },
  { alg: 'ES384', keys: ec('P-384'), sign: ecdsa('sha384') },
  { alg: 'ES512', keys: ec('P-521'), sign: ecdsa('sha512') },
  { alg: 'EdDSA', keys: () => generateKeyPairSync('ed25519'), sign: (data, key) => sign(null, data, key) },
  { alg: 'EdDSA', keys: () => generateKeyPairSync('ed448'), sign: (data, key) => sign(null, data, key) },
];

function signed(c: Case, header: object = {}) {
  const { privateKey, publicKey } = c.keys();
  const input = `${b64({ alg: c.alg, kid: 'k1', ...header })}.${b64(PAYLOAD)}`;
  const token = `${input}.${c.sign(Buffer.from(input), privateKey).toString('base64url')}`;
  const jwk = { ...(publicKey.export({ format: 'jwk' }) as Jwk), kid: 'k1' };
  return { token, jwk };
}

describe('signatures', () => {
  it.each(CASES.map((c) => [c.alg, c] as const))(
    'verifies %s with its key, and refuses a changed payload',
    (_alg, c) => {
      const { token, jwk } = signed(c);
      const key = verificationKey(jwk)!;
      const parsed = parseToken(token);
      expect(signatureValid(parsed, algorithmOf(parsed), key)).toBe(true);
      const [head, , sig] = token.split('.');
      const changed = parseToken(`${head}.${b64({ sub: 'mallory' })}.${sig}`);
      expect(signatureValid(changed, algorithmOf(changed), key)).toBe(false);
    },
  );

  it('uses a key that declares its algorithm for that one only', () => {
    const c = CASES[0]!;
    const { token, jwk } = signed(c);
    const parsed = parseToken(token);
    expect(signatureValid(parsed, 'RS256', verificationKey({ ...jwk, alg: 'RS256' })!)).toBe(true);
    expect(signatureValid(parsed, 'RS256', verificationKey({ ...jwk, alg: 'PS256' })!)).toBe(false);
    expect(signatureValid(parsed, 'RS256', verificationKey({ ...jwk, use: 'enc' })!)).toBe(false);
    // An ES256 token cannot be checked with an RSA key, nor the other way round.
    const es = signed(CASES[6]!);
    expect(signatureValid(parseToken(es.token), 'ES256', verificationKey(jwk)!)).toBe(false);
  });

  it('refuses none, the HMAC algorithms and unknown ones before any key is looked at', () => {
    for (const alg of ['none', 'HS256', 'HS384', 'HS512', 'RS1', 'ES256K', 'constructor']) {
      const parsed = parseToken(`${b64({ alg })}.${b64(PAYLOAD)}.`);
      expect(() => algorithmOf(parsed)).toThrow(TokenError);
    }
  });

  it('never makes a symmetric key of a JWKS entry (an HS256 token signed with the public key as secret)', () => {
    const { jwk } = signed(CASES[0]!);
    expect(verificationKey({ kty: 'oct', k: 'c2VjcmV0' })).toBeUndefined();
    const input = `${b64({ alg: 'HS256', kid: 'k1' })}.${b64(PAYLOAD)}`;
    const mac = createHmac('sha256', JSON.stringify(jwk)).update(input).digest('base64url');
    expect(() => algorithmOf(parseToken(`${input}.${mac}`))).toThrow(/not accepted/);
  });

  it('refuses what is not a compact JWS', () => {
    for (const token of ['abc', 'a.b', 'a.b.c.d', `${b64({ alg: 'RS256' })}.${b64(PAYLOAD)}.a+b`, '!.!.!']) {
      expect(() => parseToken(token)).toThrow(TokenError);
    }
    expect(() => parseToken(`${b64({ alg: 'RS256', crit: ['x'] })}.${b64(PAYLOAD)}.`)).toThrow(/critical/);
    expect(() => parseToken(`${b64([1])}.${b64(PAYLOAD)}.`)).toThrow(/not an object/);
  });
});

describe('claims', () => {
  const ISSUER = 'https://sso.example.com/realms/platform';
  const AUDIENCE = 'https://mcp.example.com/mcp';
  const NOW = 1_800_000_000;
  const checks = { issuer: ISSUER, audience: AUDIENCE, now: NOW, skew: 60 };
  const good = { iss: ISSUER, aud: AUDIENCE, sub: 'alice', exp: NOW + 300, scope: 'svc.read svc.write' };

  it('gives the subject, the client and the scopes of a good token', () => {
    const payload = { ...good, client_id: 'agent', azp: 'other' };
    expect(checkClaims(payload, checks)).toEqual({
      subject: 'alice',
      client: 'agent',
      scopes: ['svc.read', 'svc.write'],
      expiresAt: NOW + 300,
      // All of them, for the credential profile a claim picks.
      claims: payload,
    });
    expect(checkClaims({ ...good, azp: 'kc-client' }, checks).client).toBe('kc-client');
    expect(checkClaims({ ...good, scope: undefined, scp: ['svc.read'] }, checks).scopes).toEqual(['svc.read']);
    expect(checkClaims({ ...good, scope: undefined, scp: 'svc.destructive' }, checks).scopes).toEqual([
      'svc.destructive',
    ]);
    expect(checkClaims({ ...good, scope: undefined }, checks).scopes).toEqual([]);
  });

  it('takes an audience list that contains our URL, a trailing slash or the case of the host aside', () => {
    expect(() => checkClaims({ ...good, aud: ['https://other.example.com', AUDIENCE] }, checks)).not.toThrow();
    expect(() => checkClaims({ ...good, aud: 'https://MCP.example.com/mcp/' }, checks)).not.toThrow();
    expect(() => checkClaims({ ...good, aud: 'https://mcp.example.com/mcp2' }, checks)).toThrow(/aud/);
    expect(() => checkClaims({ ...good, aud: ['https://mcp.example.com'] }, checks)).toThrow(/aud/);
    expect(() => checkClaims({ ...good, aud: undefined }, checks)).toThrow(/aud/);
  });

  it('wants the issuer exactly', () => {
    expect(() => checkClaims({ ...good, iss: `${ISSUER}/` }, checks)).toThrow(/issuer/);
    expect(() => checkClaims({ ...good, iss: undefined }, checks)).toThrow(/issuer/);
  });

  it('allows 60 s of skew on exp and nbf, not one more', () => {
    expect(() => checkClaims({ ...good, exp: NOW - 59 }, checks)).not.toThrow();
    expect(() => checkClaims({ ...good, exp: NOW - 60 }, checks)).toThrow(/expired/);
    expect(() => checkClaims({ ...good, exp: undefined }, checks)).toThrow(/exp/);
    expect(() => checkClaims({ ...good, exp: '9999999999' }, checks)).toThrow(/exp/);
    expect(() => checkClaims({ ...good, nbf: NOW + 60 }, checks)).not.toThrow();
    expect(() => checkClaims({ ...good, nbf: NOW + 61 }, checks)).toThrow(/not valid yet/);
  });

  it('wants a subject', () => {
    expect(() => checkClaims({ ...good, sub: '' }, checks)).toThrow(/sub/);
    expect(() => checkClaims({ ...good, sub: 42 }, checks)).toThrow(/sub/);
  });
});
