import { constants, sign, type KeyObject } from 'node:crypto';

/**
 * Mints JWTs with node:crypto alone (not with the code under test), for the tokens an authorization server would
 * never issue: another audience, another issuer, expired, unsigned, signed by a stranger's key, tampered.
 */
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function mintJwt(
  payload: Record<string, unknown>,
  options: { key: KeyObject; kid?: string; alg: 'ES256' | 'RS256' | 'PS256' | 'EdDSA' },
): string {
  const header = { alg: options.alg, typ: 'at+jwt', ...(options.kid ? { kid: options.kid } : {}) };
  const input = `${b64(header)}.${b64(payload)}`;
  const data = Buffer.from(input);
  const signature =
    options.alg === 'ES256'
      ? sign('sha256', data, { key: options.key, dsaEncoding: 'ieee-p1363' })
      : options.alg === 'PS256'
        ? sign('sha256', data, { key: options.key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })
        : options.alg === 'EdDSA'
          ? sign(null, data, options.key)
          : sign('sha256', data, options.key);
  return `${input}.${signature.toString('base64url')}`;
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
