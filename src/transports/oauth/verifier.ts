import { discoverIssuer, type FetchJson } from './discovery.js';
import { JwksCache, KeysUnavailable } from './jwks.js';
import { TokenError, algorithmOf, checkClaims, parseToken, signatureValid, type TokenClaims } from './jwt.js';

/** At most this much difference between our clock and the authorization server's, for `exp` and `nbf`. */
export const CLOCK_SKEW_SECONDS = 60;

export interface VerifierOptions {
  issuer: string;
  /** SVC_MCP_PUBLIC_URL: the audience every token must name. */
  audience: string;
  fetchJson: FetchJson;
  /** Milliseconds since the epoch. */
  now(): number;
}

export type TokenVerifier = (token: string) => Promise<TokenClaims>;

/**
 * After a failed discovery, tokens are answered "unavailable" for this long without trying again: a flood of
 * tokens while the authorization server is down must not become a flood of requests to it.
 */
export const RETRY_AFTER_FAILURE_MS = 5000;

/**
 * Verifies access tokens locally, with nothing but the issuer's published keys: no call to the authorization server
 * per token, and no state but that key set, so any replica verifies any token. The issuer's metadata is discovered
 * when the first token arrives (a start does not depend on the authorization server being up); a failed discovery
 * is tried again by the next token. Throws TokenError (401) or KeysUnavailable (503).
 */
export function tokenVerifier(options: VerifierOptions): TokenVerifier {
  let jwks: Promise<JwksCache> | undefined;
  let failed: { at: number; error: KeysUnavailable } | undefined;
  const keys = () => {
    if (!jwks && failed && options.now() - failed.at < RETRY_AFTER_FAILURE_MS) return Promise.reject(failed.error);
    return (jwks ??= discoverIssuer(options.issuer, options.fetchJson).then(
      ({ jwksUri }) =>
        new JwksCache({
          fetchKeys: () => options.fetchJson(jwksUri).then(orMissing),
          now: options.now,
          minRetryMs: RETRY_AFTER_FAILURE_MS,
        }),
      (error: unknown) => {
        jwks = undefined;
        const unavailable = new KeysUnavailable(
          `cannot discover the authorization server: ${(error as Error).message}`,
        );
        failed = { at: options.now(), error: unavailable };
        throw unavailable;
      },
    ));
  };
  return async (token) => {
    const parsed = parseToken(token);
    const alg = algorithmOf(parsed);
    const candidates = await (await keys()).candidates(parsed.header.kid, alg);
    if (candidates.length === 0) throw new TokenError('the token is signed by a key the issuer does not publish');
    if (!candidates.some((key) => signatureValid(parsed, alg, key)))
      throw new TokenError('the token signature is invalid');
    return checkClaims(parsed.payload, {
      issuer: options.issuer,
      audience: options.audience,
      now: Math.floor(options.now() / 1000),
      skew: CLOCK_SKEW_SECONDS,
    });
  };
}

const orMissing = (document: unknown) => {
  if (document === undefined) throw new Error('the jwks_uri answered 4xx');
  return document;
};
