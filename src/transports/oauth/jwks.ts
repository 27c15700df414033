import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
  type JWTVerifyGetKey,
  type RemoteJWKSet,
} from 'jose';
import { discoverIssuer } from './discovery.js';
import { DeadlinePassed, type FetchJson } from './fetch-json.js';
import { envName } from '../../config/index.js';

/**
 * The authorization server's signing keys, for `jose`'s jwtVerify: the issuer's metadata is discovered when the first
 * token arrives (a start does not depend on the authorization server being up), then its JWKS is `jose`'s remote key
 * set, fetched through our HTTP client. What `jose` leaves to us:
 * - one overall deadline for a request that waits on the authorization server (discovery and key set together), so
 *   that a server that trickles its answer cannot hold requests: they are answered `503` when it passes;
 * - after a failed fetch nothing is asked for RETRY_AFTER_FAILURE_MS, however many tokens arrive;
 * - a failed refresh keeps the keys we had (`jose` would fail every token until the server is back);
 * - each failed fetch is logged once, with why, however many requests waited on it.
 */

/** A token signed by a key we do not have makes us fetch the set again, at most once a minute. */
const JWKS_COOLDOWN_MS = 60_000;
/** A set this old is fetched again when next used, so that a withdrawn key stops being accepted. */
const JWKS_MAX_AGE_MS = 60 * 60_000;
/** After a failed fetch, tokens are answered from what we have (or `503`) for this long without asking again. */
export const RETRY_AFTER_FAILURE_MS = 5000;

/** The keys cannot be had: not the token's fault (the answer is 503, not 401). The message is for the log. */
export class KeysUnavailable extends Error {
  override name = 'KeysUnavailable';
  /** The authorization server did not answer within the deadline (rather than answering wrong or not at all). */
  readonly timedOut: boolean;

  constructor(message: string, timedOut = false) {
    super(message);
    this.timedOut = timedOut;
  }
}

export interface IssuerKeysOptions {
  issuer: string;
  fetchJson: FetchJson;
  /** SVC_MCP_OAUTH_TIMEOUT_MS: how long a request may wait on the authorization server, everything included. */
  deadlineMs: number;
  /** Milliseconds since the epoch. */
  now(): number;
  log(entry: object): void;
  /** After each good fetch of the key set. */
  onKeys?(): void;
}

export function issuerKeys(options: IssuerKeysOptions): JWTVerifyGetKey {
  const { deadlineMs, now, log } = options;
  let remote: Promise<RemoteJWKSet> | undefined;
  /** The key set once discovery is done: what a request that cannot wait may look at. */
  let discovered: RemoteJWKSet | undefined;
  let failed: { at: number; error: KeysUnavailable } | undefined;
  /** The keys we had when a fetch failed: verification goes on with them (made anew after each good fetch). */
  let kept: JWTVerifyGetKey | undefined;

  const timeoutMessage = `the authorization server did not answer within ${deadlineMs} ms (${envName('SVC_MCP_OAUTH_TIMEOUT_MS')})`;
  /** Records a failed fetch and logs it: called once per fetch, whatever number of requests share it. */
  const failure = (error: unknown, what: string): KeysUnavailable => {
    const timedOut = error instanceof DeadlinePassed || error instanceof errors.JWKSTimeout;
    const unavailable = timedOut
      ? new KeysUnavailable(timeoutMessage, true)
      : new KeysUnavailable(`${what}: ${(error as Error)?.message ?? String(error)}`);
    failed = { at: now(), error: unavailable };
    log({ event: 'oauth_keys_unavailable', why: unavailable.message });
    return unavailable;
  };

  const fetchKeySet = async (url: string, init: { signal: AbortSignal }): Promise<Response> => {
    let document: object;
    try {
      document = publicKeysOf(await options.fetchJson(url, init.signal));
    } catch (error) {
      throw failure(error, `cannot fetch the key set at ${url}`);
    }
    failed = undefined;
    kept = undefined;
    options.onKeys?.();
    const keys = (document as { keys: object[] }).keys;
    if (!keys.some(signingKey))
      log({ event: 'oauth_keys_unusable', url, why: `no public signing key among the ${keys.length} published` });
    return { status: 200, json: async () => document } as Response;
  };

  const keySet = () =>
    (remote ??= discoverIssuer(options.issuer, options.fetchJson, {
      signal: AbortSignal.timeout(deadlineMs),
      log,
    }).then(
      ({ jwksUri }) =>
        (discovered = createRemoteJWKSet(new URL(jwksUri), {
          timeoutDuration: deadlineMs,
          cooldownDuration: JWKS_COOLDOWN_MS,
          cacheMaxAge: JWKS_MAX_AGE_MS,
          [customFetch]: fetchKeySet,
        })),
      (error: unknown) => {
        remote = undefined;
        throw failure(error, 'cannot discover the authorization server');
      },
    ));

  /** The keys of the last good fetch, while the authorization server fails us; undefined when there were none. */
  const keptKeys = (): JWTVerifyGetKey | undefined => {
    const jwks = discovered?.jwks();
    return jwks ? (kept ??= createLocalJWKSet(jwks)) : undefined;
  };

  const withDeadline = <T>(work: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new KeysUnavailable(timeoutMessage, true)), deadlineMs);
      timer.unref();
    });
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  };

  return async (header, token) => {
    if (failed && now() - failed.at < RETRY_AFTER_FAILURE_MS) {
      const keys = keptKeys();
      if (!keys) throw failed.error;
      return keys(header, token);
    }
    try {
      return await withDeadline(keySet().then((set) => set(header, token)));
    } catch (error) {
      if (!(error instanceof KeysUnavailable)) throw error;
      const keys = keptKeys();
      if (!keys) throw error;
      return keys(header, token);
    }
  };
}

/** Public keys only: a symmetric key is never one, and the private members of a wrongly published key are left out. */
function publicKeysOf(document: object): { keys: object[] } {
  const keys = (document as { keys?: unknown }).keys;
  if (!Array.isArray(keys)) throw new Error('the key set has no "keys" array');
  return {
    keys: keys
      .filter((k): k is Record<string, unknown> => !!k && typeof k === 'object' && !Array.isArray(k) && k.kty !== 'oct')
      .map(({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, k: _k, oth: _oth, ...pub }) => pub),
  };
}

function signingKey(key: object): boolean {
  const { kty, use } = key as { kty?: unknown; use?: unknown };
  return (kty === 'RSA' || kty === 'EC' || kty === 'OKP') && (use === undefined || use === 'sig');
}
