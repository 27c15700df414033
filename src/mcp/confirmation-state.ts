import { createRequestStateCodec, type RequestStateCodec } from '@modelcontextprotocol/server';
import type { ConfirmationRequest } from '../call/confirmation.js';

/** A user typing an id into a form can take a while; a form left open longer ends the call. */
export const CONFIRMATION_TIMEOUT_MS = 5 * 60_000;

/**
 * What the sealed `requestState` of a confirmation proves: the form was asked for this tool with these arguments, of
 * this client (its OAuth subject, session or address, where the transport can tell), with the keys of this credential
 * profile, under this one-time nonce.
 */
export interface ConfirmationState {
  tool: string;
  digest: string;
  client?: string;
  profile?: string;
  nonce?: string;
}

/**
 * Seals and checks confirmation state (HMAC-SHA256, valid for the form's timeout). With SVC_MCP_STATE_KEY every
 * replica that shares it accepts the state; without it the key is random per process, so the retried call must
 * reach the same process.
 */
export function confirmationCodec(key: string | undefined): RequestStateCodec<ConfirmationState> {
  // Made on first use: the codec reaches for Web Crypto, whose loading is a few ms of every start otherwise, and most
  // sessions never confirm anything.
  let codec: RequestStateCodec<ConfirmationState> | undefined;
  const made = () =>
    (codec ??= createRequestStateCodec<ConfirmationState>({
      key: key ?? globalThis.crypto.getRandomValues(new Uint8Array(32)),
      ttlSeconds: CONFIRMATION_TIMEOUT_MS / 1000,
    }));
  return {
    mint: (payload, ctx) => made().mint(payload, ctx),
    verify: (state, ctx) => made().verify(state, ctx),
  };
}

/**
 * The one-time nonces of answered confirmations, kept as long as a sealed state lives (its expiry makes an older one
 * worthless anyway), so that a state replayed within that time is refused. Bounded: past `max` entries the oldest go,
 * which can only make a replay of that old state fail later by its expiry.
 */
export class SpentStates {
  readonly #spent = new Map<string, number>();
  constructor(
    private readonly now: () => number,
    private readonly max = 100_000,
  ) {}

  /** True the first time a nonce is spent, false after. */
  spend(nonce: string): boolean {
    const now = this.now();
    for (const [old, at] of this.#spent) {
      if (now - at < CONFIRMATION_TIMEOUT_MS && this.#spent.size < this.max) break;
      this.#spent.delete(old);
    }
    if (this.#spent.has(nonce)) return false;
    this.#spent.set(nonce, now);
    return true;
  }
}

/** The tool and its validated arguments, in a stable order: what a confirmation holds for. */
export function confirmationDigest(request: ConfirmationRequest): string {
  return process
    .getBuiltinModule('node:crypto')
    .createHash('sha256')
    .update(`${request.tool}\0${stableJson(request.args)}`)
    .digest('base64url');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
