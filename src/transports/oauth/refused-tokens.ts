import { createHash } from 'node:crypto';

/**
 * Tokens refused for good (a bad signature, another audience, expired), by their SHA-256, with why: the same token
 * again is refused for the cost of a hash, unchecked. This is what a wrong token costs, and only its sender pays:
 * nobody else holds that token, so nobody else is refused by it (an address, a subject or a client named in a
 * token nobody has verified would let one sender lock out others). Memory is bounded: at most `maxTokens`
 * remembered, each for `keepMs`, the oldest dropped first; all are forgotten when the issuer's keys change.
 */
export class RefusedTokens {
  readonly #refused = new Map<string, { reason: string; at: number }>();
  readonly #options: { maxTokens: number; keepMs: number; now(): number };

  constructor(options: { maxTokens?: number; keepMs?: number; now(): number }) {
    this.#options = { maxTokens: options.maxTokens ?? 10_000, keepMs: options.keepMs ?? 15 * 60_000, now: options.now };
  }

  get size(): number {
    return this.#refused.size;
  }

  /** Why this token was refused before; undefined when it was not (or long enough ago to be forgotten). */
  reasonFor(token: string): string | undefined {
    const entry = this.#refused.get(digest(token));
    return entry && this.#options.now() - entry.at < this.#options.keepMs ? entry.reason : undefined;
  }

  /** Forgets every refusal: when the issuer's keys change, a signature refused by the old ones may be good. */
  clear(): void {
    this.#refused.clear();
  }

  add(token: string, reason: string): void {
    const { maxTokens, keepMs, now } = this.#options;
    const at = now();
    const key = digest(token);
    this.#refused.delete(key);
    this.#refused.set(key, { reason, at });
    // A Map keeps the order of insertion: the oldest first.
    for (const [old, entry] of this.#refused) {
      if (this.#refused.size <= maxTokens && at - entry.at < keepMs) break;
      this.#refused.delete(old);
    }
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
