import { PROTOCOL_VERSION_META_KEY, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { RPC_ERROR } from '../jsonrpc-errors.js';
import type { RpcError } from './jsonrpc-check.js';
import type { RequestId } from './stdio-lines.js';

/** The era of a stdio connection: 2025 (opened with initialize) or 2026-07-28 (every request carries its version). */
export type Era = 'legacy' | 'modern';

/** What to do with one incoming message: hand it to the SDK, answer it here, or drop it (a notification). */
export type EraVerdict =
  | { kind: 'pass' }
  | { kind: 'answer'; id: RequestId; error: RpcError }
  | { kind: 'result'; id: RequestId }
  | { kind: 'drop'; why: string };

/** The 2026-07-28 probe, which a client may follow with either era's opening (the SDK allows it). */
const DISCOVER = 'server/discover';

/**
 * Keeps one stdio connection in the era its opening chose. The SDK's serveStdio pins an era at the first message but
 * then hands everything to the pinned instance, and that instance reads a request's 2026-07-28 envelope wherever it
 * finds one: a 2025 connection would have such a request confirmed in the other era's way. So a request that claims
 * the other era is refused here, naming both; and before an era is chosen, a request that would open one with no
 * initialize (which the SDK serves) is refused, and a stray notification is dropped rather than let it pin one.
 *
 * The rules follow the SDK's opening: `initialize` (without an envelope) opens 2025, a message carrying the envelope's
 * protocol version opens 2026-07-28, `server/discover` opens nothing. An envelope the SDK finds invalid opens nothing
 * there; this guard learns of it when a later `initialize` is answered with a result (only a 2025 opening is).
 */
export class StdioEra {
  #era: Era | undefined;
  /** The protocol version a 2025 connection negotiated (the result of initialize). */
  #version: string | undefined;
  readonly #initializing = new Set<RequestId>();

  get era(): Era | undefined {
    return this.#era;
  }

  /** The protocol version a 2025 connection negotiated at initialize; undefined before, and in 2026-07-28. */
  get negotiated(): string | undefined {
    return this.#version;
  }

  /** The verdict on a message from the client (a batch's messages one by one). */
  admit(message: JSONRPCMessage): EraVerdict {
    const m = message as { id?: RequestId; method?: string; params?: { _meta?: unknown } };
    if (m.method === undefined) return { kind: 'pass' };
    const request = m.id !== undefined;
    const claims = claimsModern(m.params);
    if (m.method === 'initialize' && !claims) {
      if (request) this.#initializing.add(m.id!);
      this.#era ??= 'legacy';
      return { kind: 'pass' };
    }
    if (claims) {
      if (this.#era === 'legacy') {
        return request
          ? { kind: 'answer', id: m.id!, error: OTHER_ERA }
          : { kind: 'drop', why: 'a 2026-07-28 notification on a 2025 connection' };
      }
      if (m.method !== DISCOVER) this.#era ??= 'modern';
      return { kind: 'pass' };
    }
    if (this.#era !== undefined) return { kind: 'pass' };
    if (!request) return { kind: 'drop', why: 'a notification before the connection chose its era' };
    // Ping is allowed before initialization (2025) and needs no era: answered here, so that it opens none.
    if (m.method === 'ping') return { kind: 'result', id: m.id! };
    return { kind: 'answer', id: m.id!, error: NOT_OPENED };
  }

  /** Sees each message to the client: the answer to initialize tells that the SDK opened 2025, and in which version. */
  answered(message: JSONRPCMessage): void {
    const m = message as { id?: RequestId; method?: string; result?: { protocolVersion?: unknown } };
    if (m.method !== undefined || m.id === undefined || !this.#initializing.delete(m.id)) return;
    if (m.result && typeof m.result.protocolVersion === 'string') {
      this.#era = 'legacy';
      this.#version = m.result.protocolVersion;
    }
  }
}

/** Whether a message's params carry the 2026-07-28 envelope's protocol version (the SDK's own test of a claim). */
function claimsModern(params: { _meta?: unknown } | undefined): boolean {
  const meta = params?._meta;
  return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
}

const NOT_OPENED: RpcError = {
  code: RPC_ERROR.InvalidRequest,
  message:
    'Invalid Request: the connection has not been opened: send initialize first (protocol 2025-11-25 and earlier), ' +
    'or requests carrying the 2026-07-28 `_meta` envelope',
};

const OTHER_ERA: RpcError = {
  code: RPC_ERROR.InvalidRequest,
  message:
    'Invalid Request: this connection was opened with initialize (2025 protocol); a request carrying the 2026-07-28 ' +
    '`_meta` envelope is not served on it: one stdio connection keeps the era it opened with',
};
