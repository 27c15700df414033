import { createPublicKey, verify, constants, type JsonWebKey, type KeyObject } from 'node:crypto';

/**
 * A JWT access token, checked the way a resource server must (RFC 9068, RFC 8725): its signature by one of the
 * authorization server's public keys, with the algorithm that key is for, and its claims against our issuer,
 * our audience and the clock. Pure: the keys and the time are given.
 */

/** A public key as a JWKS publishes it (RFC 7517); only what verification reads is typed. */
export interface Jwk {
  kty: string;
  kid?: string;
  alg?: string;
  use?: string;
  crv?: string;
  [member: string]: unknown;
}

/** What a verified token says about who calls. */
export interface TokenClaims {
  subject: string;
  /** `client_id` (RFC 9068), else `azp` (OpenID Connect: Keycloak, Entra ID v2), `appid` (Entra ID v1), `cid` (Okta) */
  client?: string;
  scopes: readonly string[];
  /** Seconds since the epoch. */
  expiresAt: number;
  /** Every claim of the token, for the credential profile a claim picks (never logged). */
  claims: Readonly<Record<string, unknown>>;
}

export interface ClaimChecks {
  issuer: string;
  /** Our canonical URL: the token's `aud` must contain it (RFC 8707). */
  audience: string;
  /** Seconds since the epoch. */
  now: number;
  /** Seconds of clock difference tolerated for `exp` and `nbf`. */
  skew: number;
}

/** Why a token is refused, in words safe to log and to return (never the token or any part of it). */
export class TokenError extends Error {
  override name = 'TokenError';
}

interface Algorithm {
  kty: 'RSA' | 'EC' | 'OKP';
  hash: 'sha256' | 'sha384' | 'sha512' | null;
  pss?: true;
  /** The curves of EC keys (one per algorithm) and OKP keys. */
  curves?: readonly string[];
}

/** The asymmetric signatures of RFC 7518 and RFC 8037. `none` and the HMAC ones (HS*) are never accepted. */
const ALGORITHMS: Readonly<Record<string, Algorithm>> = {
  RS256: { kty: 'RSA', hash: 'sha256' },
  RS384: { kty: 'RSA', hash: 'sha384' },
  RS512: { kty: 'RSA', hash: 'sha512' },
  PS256: { kty: 'RSA', hash: 'sha256', pss: true },
  PS384: { kty: 'RSA', hash: 'sha384', pss: true },
  PS512: { kty: 'RSA', hash: 'sha512', pss: true },
  ES256: { kty: 'EC', hash: 'sha256', curves: ['P-256'] },
  ES384: { kty: 'EC', hash: 'sha384', curves: ['P-384'] },
  ES512: { kty: 'EC', hash: 'sha512', curves: ['P-521'] },
  EdDSA: { kty: 'OKP', hash: null, curves: ['Ed25519', 'Ed448'] },
};

export const SUPPORTED_ALGORITHMS = Object.keys(ALGORITHMS);

/** The parts of a compact JWS, decoded but not yet trusted. */
export interface ParsedToken {
  header: { alg: string; kid?: string; typ?: string };
  payload: Record<string, unknown>;
  signingInput: Buffer;
  signature: Buffer;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

export function parseToken(token: string): ParsedToken {
  const parts = token.split('.');
  if (parts.length !== 3) throw new TokenError('the token is not a signed JWT (three dot-separated parts)');
  const [head = '', body = '', sig = ''] = parts;
  if (![head, body, sig].every((p) => BASE64URL.test(p))) throw new TokenError('the token is not base64url');
  const header = json(head, 'header');
  const payload = json(body, 'payload');
  if (typeof header.alg !== 'string') throw new TokenError('the token header has no alg');
  if (header.kid !== undefined && typeof header.kid !== 'string') throw new TokenError('the token kid is not a string');
  // RFC 8725 3.1: the header must not choose how it is checked beyond naming the key and the algorithm.
  if (header.crit !== undefined) throw new TokenError('the token header has critical extensions');
  return {
    header: header as ParsedToken['header'],
    payload,
    signingInput: Buffer.from(`${head}.${body}`, 'ascii'),
    signature: Buffer.from(sig, 'base64url'),
  };
}

function json(part: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new TokenError(`the token ${what} is not JSON`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new TokenError(`the token ${what} is not an object`);
  return value as Record<string, unknown>;
}

/** Refuses `none`, HMAC and anything unknown before any key is looked up. */
export function algorithmOf(token: ParsedToken): string {
  const alg = token.header.alg;
  // The name is not echoed: it is the sender's text, and it would go into a response header.
  if (!Object.hasOwn(ALGORITHMS, alg)) throw new TokenError('the token algorithm is not accepted');
  return alg;
}

/**
 * Whether a key may check a signature of this algorithm: its type and curve fit, it is not an encryption key, and
 * when it declares an algorithm that is the one (a key is for one algorithm only, RFC 8725 3.1).
 */
export function keyFits(jwk: Jwk, alg: string): boolean {
  const spec = ALGORITHMS[alg];
  if (!spec || jwk.kty !== spec.kty) return false;
  if (jwk.use !== undefined && jwk.use !== 'sig') return false;
  if (jwk.alg !== undefined && jwk.alg !== alg) return false;
  if (spec.curves && !spec.curves.includes(String(jwk.crv))) return false;
  return true;
}

/** A key of the JWKS, made ready once when the set is loaded. */
export interface VerificationKey {
  jwk: Jwk;
  key: KeyObject;
}

/** The key object of a JWK; only its public members are read (a JWKS that wrongly holds a private key stays public). */
export function verificationKey(jwk: Jwk): VerificationKey | undefined {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, k: _k, ...pub } = jwk;
  if (jwk.kty !== 'RSA' && jwk.kty !== 'EC' && jwk.kty !== 'OKP') return undefined;
  try {
    return { jwk, key: createPublicKey({ key: pub as JsonWebKey, format: 'jwk' }) };
  } catch {
    return undefined;
  }
}

/** Checks the signature with one key; false when it does not match. */
export function signatureValid(token: ParsedToken, alg: string, { jwk, key }: VerificationKey): boolean {
  const spec = ALGORITHMS[alg];
  if (!spec || !keyFits(jwk, alg)) return false;
  try {
    return verifyWith(spec, token, key);
  } catch {
    // A signature of the wrong length for the key, say: not a match.
    return false;
  }
}

function verifyWith(spec: Algorithm, token: ParsedToken, key: KeyObject): boolean {
  if (spec.kty === 'RSA') {
    const padding = spec.pss ? constants.RSA_PKCS1_PSS_PADDING : constants.RSA_PKCS1_PADDING;
    const saltLength = spec.pss ? constants.RSA_PSS_SALTLEN_DIGEST : undefined;
    return verify(spec.hash, token.signingInput, { key, padding, saltLength }, token.signature);
  }
  // JWS carries ECDSA signatures as r||s (IEEE P1363), not DER.
  if (spec.kty === 'EC')
    return verify(spec.hash, token.signingInput, { key, dsaEncoding: 'ieee-p1363' }, token.signature);
  return verify(null, token.signingInput, key, token.signature);
}

/** The claims of a token whose signature is good: issuer, audience, lifetime; then who and what for. */
export function checkClaims(payload: Record<string, unknown>, checks: ClaimChecks): TokenClaims {
  if (payload.iss !== checks.issuer) throw new TokenError('the token is from another issuer');
  const aud = payload.aud;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  if (!audiences.some((a) => typeof a === 'string' && sameResource(a, checks.audience)))
    throw new TokenError('the token is not for this server (aud)');
  const exp = payload.exp;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw new TokenError('the token has no expiry (exp)');
  if (checks.now >= exp + checks.skew) throw new TokenError('the token has expired');
  const nbf = payload.nbf;
  if (nbf !== undefined && (typeof nbf !== 'number' || checks.now < nbf - checks.skew))
    throw new TokenError('the token is not valid yet (nbf)');
  const sub = payload.sub;
  if (typeof sub !== 'string' || sub === '') throw new TokenError('the token has no subject (sub)');
  const client = [payload.client_id, payload.azp, payload.appid, payload.cid].find(
    (c): c is string => typeof c === 'string',
  );
  return { subject: sub, ...(client ? { client } : {}), scopes: scopesOf(payload), expiresAt: exp, claims: payload };
}

/** `scope` is a space-separated string (RFC 9068); Entra ID and Okta use `scp`, a string or an array. */
function scopesOf(payload: Record<string, unknown>): string[] {
  const raw = payload.scope ?? payload.scp;
  if (typeof raw === 'string') return raw.split(' ').filter(Boolean);
  if (Array.isArray(raw)) return raw.filter((s): s is string => typeof s === 'string');
  return [];
}

/** RFC 8707 resources compare as URLs: one trailing slash and the case of scheme and host do not matter. */
export function sameResource(a: string, b: string): boolean {
  return canonical(a) === canonical(b);
}

function canonical(text: string): string {
  try {
    const url = new URL(text);
    url.hash = '';
    return url.href.replace(/\/$/, '');
  } catch {
    return text;
  }
}
