import { verificationKey, keyFits, type Jwk, type VerificationKey } from './jwt.js';

/**
 * The authorization server's signing keys (its JWKS), fetched when first needed and kept. A token signed by a key
 * we do not have (the server rotated its keys) makes us fetch the set again, at most once a minute, so that a
 * flood of tokens with made-up key ids cannot make us flood the authorization server. The set is also fetched
 * again on use once it is an hour old, so that a withdrawn key stops being accepted.
 */
export interface JwksOptions {
  /** Fetches the JWKS document (its `keys`); throws when it cannot. */
  fetchKeys(): Promise<unknown>;
  now(): number;
  minRefetchMs?: number;
  maxAgeMs?: number;
  /** While there are no keys at all, how long after a failed fetch the next may start (0: at once). */
  minRetryMs?: number;
}

export const JWKS_MIN_REFETCH_MS = 60_000;
export const JWKS_MAX_AGE_MS = 60 * 60_000;

/** The key set could not be fetched: not the token's fault (the answer is 503, not 401). */
export class KeysUnavailable extends Error {
  override name = 'KeysUnavailable';
}

export class JwksCache {
  readonly #options: JwksOptions;
  #keys: VerificationKey[] | undefined;
  /** When the last fetch started, successful or not. */
  #fetchedAt = -Infinity;
  #loading: Promise<VerificationKey[]> | undefined;
  /** Why the last fetch failed, while no key was ever fetched. */
  #failure: KeysUnavailable | undefined;

  constructor(options: JwksOptions) {
    this.#options = options;
  }

  /**
   * The keys that may have signed a token with this key id (any fitting key when the token names none) and
   * algorithm; empty when none does, even after the one refetch allowed.
   */
  async candidates(kid: string | undefined, alg: string): Promise<VerificationKey[]> {
    const { now, maxAgeMs = JWKS_MAX_AGE_MS } = this.#options;
    const stale = now() - this.#fetchedAt >= maxAgeMs;
    let keys = this.#keys === undefined || stale ? await this.#load(this.#keys === undefined) : this.#keys;
    let found = pick(keys, kid, alg);
    if (found.length === 0 && this.#mayRefetch()) {
      keys = await this.#load(false);
      found = pick(keys, kid, alg);
    }
    return found;
  }

  #mayRefetch(): boolean {
    const { now, minRefetchMs = JWKS_MIN_REFETCH_MS } = this.#options;
    return now() - this.#fetchedAt >= minRefetchMs;
  }

  /** One fetch at a time, shared by the requests that wait for it; a failed one keeps the keys we had. */
  #load(required: boolean): Promise<VerificationKey[]> {
    if (!this.#loading) {
      if (!required && !this.#mayRefetch()) return Promise.resolve(this.#keys ?? []);
      const { now, minRetryMs = 0 } = this.#options;
      if (required && this.#failure && now() - this.#fetchedAt < minRetryMs) return Promise.reject(this.#failure);
      this.#fetchedAt = this.#options.now();
      this.#loading = this.#options
        .fetchKeys()
        .then((document) => {
          this.#failure = undefined;
          return (this.#keys = keysOf(document));
        })
        .catch((error: unknown) => {
          if (this.#keys) return this.#keys;
          this.#failure = new KeysUnavailable(
            `cannot fetch the authorization server's keys: ${(error as Error).message}`,
          );
          throw this.#failure;
        })
        .finally(() => (this.#loading = undefined));
    }
    return this.#loading;
  }
}

function pick(keys: readonly VerificationKey[], kid: string | undefined, alg: string): VerificationKey[] {
  return keys.filter((k) => (kid === undefined || k.jwk.kid === kid) && keyFits(k.jwk, alg));
}

/** The usable public keys of a JWKS document; anything else in it (symmetric or unreadable keys) is left out. */
export function keysOf(document: unknown): VerificationKey[] {
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('the JWKS has no "keys" array');
  return keys
    .filter((k): k is Jwk => !!k && typeof k === 'object' && typeof (k as Jwk).kty === 'string')
    .map(verificationKey)
    .filter((k): k is VerificationKey => k !== undefined);
}
