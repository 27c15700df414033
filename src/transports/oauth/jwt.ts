/**
 * What OAuth mode checks of a JWT access token beyond what `jose` checks (see verifier.ts): one canonical encoding,
 * before anything else, and the claims that say who calls and for what: the audience compared as RFC 8707 URLs,
 * the subject, the client and the scopes. Pure.
 */

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

/** Why a token is refused, in words safe to log and to return (never the token or any part of it). */
export class TokenError extends Error {
  override name = 'TokenError';
  /**
   * Whether the refusal holds for this token whatever happens later (a bad signature, another audience, expired),
   * so that the token may be refused again unchecked; not so for a key we do not have yet or an `nbf` to come.
   */
  readonly lasting: boolean;

  constructor(message: string, options: { lasting?: boolean } = {}) {
    super(message);
    this.lasting = options.lasting ?? true;
  }
}

/**
 * The asymmetric signatures of RFC 7518, RFC 8037 and RFC 9864 that `jose` verifies. `none` and the HMAC ones
 * (HS*) are never accepted; EdDSA is Ed25519 (`jose` has no Ed448).
 */
export const ACCEPTED_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/** RFC 9068 2.1: the `typ` of a JWT access token (`application/at+jwt` is the same). ID and logout tokens differ. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

/**
 * A compact JWS of three parts, each in canonical base64url: no padding, no stray bits in its last character. The
 * decoders (node's and `jose`'s) read `…Q`, `…R` and `…Q==` as the same bytes; accepting all would make one
 * signature many tokens. One pass over the token, before any JSON is parsed or any key looked up.
 */
export function checkEncoding(token: string): void {
  const parts = token.split('.');
  if (parts.length !== 3) throw new TokenError('the token is not a signed JWT (three dot-separated parts)');
  for (const part of parts) {
    if (!/^[A-Za-z0-9_-]*$/.test(part) || Buffer.from(part, 'base64url').toString('base64url') !== part)
      throw new TokenError('the token is not in canonical base64url');
  }
}

/** Who calls and for what, from a payload whose signature, issuer, type and lifetime `jose` has checked. */
export function claimsOf(payload: Record<string, unknown>, audience: string): TokenClaims {
  const aud = payload.aud;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  if (!audiences.some((a) => typeof a === 'string' && sameResource(a, audience)))
    throw new TokenError('the token is not for this server (aud)');
  const exp = payload.exp;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw new TokenError('the token has no expiry (exp)');
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
function sameResource(a: string, b: string): boolean {
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
