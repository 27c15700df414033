import { errors, jwtVerify, type JWTVerifyGetKey, type JWTVerifyOptions } from 'jose';
import type { FetchJson } from './fetch-json.js';
import { KeysUnavailable, issuerKeys } from './jwks.js';
import {
  ACCEPTED_ALGORITHMS,
  ACCESS_TOKEN_TYPE,
  TokenError,
  checkEncoding,
  claimsOf,
  type TokenClaims,
} from './jwt.js';
import { RefusedTokens } from './refused-tokens.js';

/** At most this much difference between our clock and the authorization server's, for `exp` and `nbf`. */
const CLOCK_SKEW_SECONDS = 60;

export interface VerifierOptions {
  issuer: string;
  /** SVC_MCP_PUBLIC_URL: the audience every token must name. */
  audience: string;
  fetchJson: FetchJson;
  /** SVC_MCP_OAUTH_TIMEOUT_MS */
  deadlineMs: number;
  /** Milliseconds since the epoch. */
  now(): number;
  log(entry: object): void;
  /** The memory of refused tokens (a test looks into it). */
  refused?: RefusedTokens;
}

export type TokenVerifier = (token: string) => Promise<TokenClaims>;

/**
 * Verifies access tokens locally, with nothing but the issuer's published keys: no call to the authorization server
 * per token, and no state but that key set (and the tokens refused), so any replica verifies any token. In order of
 * cost: a token refused before is refused again from memory; then its encoding; then `jose`'s jwtVerify (the
 * algorithm from the list before any key is looked up, the key, the signature, `typ` at+jwt (RFC 9068: an ID or
 * logout token is no access token), issuer, lifetime); then the audience and who calls. Throws TokenError (401) or
 * KeysUnavailable (503).
 */
export function tokenVerifier(options: VerifierOptions): TokenVerifier {
  const refused = options.refused ?? new RefusedTokens({ now: options.now });
  const keys = issuerKeys({
    issuer: options.issuer,
    fetchJson: options.fetchJson,
    deadlineMs: options.deadlineMs,
    now: options.now,
    log: options.log,
    // A key id the issuer reuses for a new key: what the old key refused may be good now.
    onKeys: () => refused.clear(),
  });
  const checks: JWTVerifyOptions = {
    issuer: options.issuer,
    typ: ACCESS_TOKEN_TYPE,
    algorithms: ACCEPTED_ALGORITHMS,
    clockTolerance: CLOCK_SKEW_SECONDS,
    requiredClaims: ['exp', 'sub', 'aud'],
  };
  return async (token) => {
    const before = refused.reasonFor(token);
    if (before !== undefined) throw new TokenError(before);
    try {
      checkEncoding(token);
      const { payload } = await verify(token, keys, { ...checks, currentDate: new Date(options.now()) });
      return claimsOf(payload, options.audience);
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal instanceof TokenError && refusal.lasting) refused.add(token, refusal.message);
      throw refusal;
    }
  };
}

/** A token without `kid` that several keys fit: each is tried (`jose` leaves that to its caller). */
async function verify(token: string, keys: JWTVerifyGetKey, checks: JWTVerifyOptions) {
  try {
    return await jwtVerify(token, keys, checks);
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
    for await (const key of error as unknown as AsyncIterable<CryptoKey>) {
      try {
        return await jwtVerify(token, key, checks);
      } catch (inner) {
        if (!(inner instanceof errors.JWSSignatureVerificationFailed)) throw inner;
      }
    }
    throw new errors.JWSSignatureVerificationFailed();
  }
}

/** `jose`'s errors in our words: safe to return (a claim's name at most, never its value). */
function refusalOf(error: unknown): TokenError | KeysUnavailable {
  if (error instanceof TokenError || error instanceof KeysUnavailable) return error;
  if (error instanceof errors.JWTExpired) return new TokenError('the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'typ':
        return new TokenError('the token is not an access token (typ must be at+jwt)');
      case 'iss':
        return new TokenError('the token is from another issuer');
      case 'aud':
        return new TokenError('the token is not for this server (aud)');
      case 'sub':
        return new TokenError('the token has no subject (sub)');
      case 'exp':
        return new TokenError('the token has no expiry (exp)');
      case 'nbf':
        return new TokenError('the token is not valid yet (nbf)', { lasting: error.reason !== 'check_failed' });
      default:
        return new TokenError('a claim of the token is invalid');
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return new TokenError('the token algorithm is not accepted');
  // RFC 8725 3.1: the header must not choose how it is checked beyond naming the key and the algorithm (`crit`).
  if (error instanceof errors.JOSENotSupported)
    return new TokenError('the token header asks for what this server does not support');
  if (error instanceof errors.JWSSignatureVerificationFailed) return new TokenError('the token signature is invalid');
  // The authorization server may start publishing it (key rotation): not held against the token.
  if (error instanceof errors.JWKSNoMatchingKey)
    return new TokenError('the token is signed by a key the issuer does not publish', { lasting: false });
  if (error instanceof errors.JWKInvalid || error instanceof errors.JWKSInvalid)
    return new TokenError("the issuer's key for this token cannot be used", { lasting: false });
  if (error instanceof errors.JOSEError) return new TokenError('the token is not a well-formed signed JWT');
  // Not jose's: a bug of ours, or a runtime without the algorithm. Not the token's fault for certain.
  return new TokenError('the token cannot be verified', { lasting: false });
}
