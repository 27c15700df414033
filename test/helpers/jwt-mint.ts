import { constants, sign, type KeyObject } from 'node:crypto';

/**
 * Mints JWTs with node:crypto alone (not with the code under test), for the tokens an authorization server would
 * never issue: another audience, another issuer, expired, unsigned, signed by a stranger's key, tampered, of
 * another type, encoded the non-canonical way.
 */
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

export type MintAlg = 'ES256' | 'ES384' | 'ES512' | 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'EdDSA';

export function mintJwt(
  payload: Record<string, unknown>,
  options: {
    key: KeyObject;
    kid?: string;
    alg: MintAlg;
    /** The header's `typ`: `at+jwt` unless given; null leaves it out. */
    typ?: string | null;
  },
): string {
  const typ = options.typ === undefined ? 'at+jwt' : options.typ;
  const header = { alg: options.alg, ...(typ === null ? {} : { typ }), ...(options.kid ? { kid: options.kid } : {}) };
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${signature(options.alg, Buffer.from(input), options.key).toString('base64url')}`;
}

function signature(alg: MintAlg, data: Buffer, key: KeyObject): Buffer {
  const hash = `sha${alg.slice(2)}`;
  if (alg === 'EdDSA') return sign(null, data, key);
  if (alg.startsWith('ES')) return sign(hash, data, { key, dsaEncoding: 'ieee-p1363' });
  if (alg.startsWith('PS'))
    return sign(hash, data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(alg.slice(2)) / 8 });
  return sign(hash, data, key);
}

/** `alg: none`: no signature at all. */
export function unsignedJwt(payload: Record<string, unknown>, kid?: string): string {
  return `${b64({ alg: 'none', typ: 'at+jwt', ...(kid ? { kid } : {}) })}.${b64(payload)}.`;
}

/** The same token with one character of its signature changed. */
export function tampered(token: string): string {
  const last = token.at(-2) === 'A' ? 'B' : 'A';
  return `${token.slice(0, -2)}${last}${token.at(-1)}`;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * The same signature bytes, spelled another way: a bit set among the unused low bits of its last character (a
 * signature whose length is no multiple of 3 has them: ES256's 64 bytes, RSA's 256), or `=` padding added.
 */
export function nonCanonical(token: string, how: 'trailing-bits' | 'padding'): string {
  const dot = token.lastIndexOf('.');
  const sig = token.slice(dot + 1);
  if (how === 'padding') return `${token}${'='.repeat((4 - (sig.length % 4)) % 4 || 4)}`;
  const unused = sig.length % 4 === 2 ? 4 : sig.length % 4 === 3 ? 2 : 0;
  if (unused === 0) throw new Error('this signature has no unused bits');
  const last = ALPHABET.indexOf(sig.at(-1)!);
  return `${token.slice(0, -1)}${ALPHABET[last ^ 1]}`;
}
