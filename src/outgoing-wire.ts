import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { RPC_ERROR } from './jsonrpc-errors.js';
import { WINDOW, type Redactor } from './util/redact.js';

type Rewritten = JSONRPCMessage | Promise<JSONRPCMessage>;

/**
 * A transport whose outgoing messages pass `rewrite` first; everything else passes through untouched, the optional
 * members of the SDK's Transport included (a per-request transport's stream, the versions it may negotiate). A
 * rewrite may take turns of the event loop (a large message is redacted in windows): messages still leave in the
 * order they were sent.
 */
export class OutgoingWire<T extends Transport = Transport> implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  readonly inner: T;
  readonly #rewrite: (message: JSONRPCMessage) => Rewritten;
  /** The sends still waiting for a rewrite that takes turns, or for those before them; settles, never fails. */
  #waiting: Promise<void> | undefined;

  constructor(inner: T, rewrite: (message: JSONRPCMessage) => Rewritten) {
    this.inner = inner;
    this.#rewrite = rewrite;
    // A close handler set before (an endpoint's, on a wire the server wraps again at connect) is kept, and runs first.
    const before = inner.onclose;
    inner.onclose = () => {
      before?.();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const rewritten = this.#rewrite(message);
    if (!(rewritten instanceof Promise) && !this.#waiting) return this.inner.send(rewritten, options);
    const sent = (this.#waiting ?? Promise.resolve()).then(async () => this.inner.send(await rewritten, options));
    const settled = sent.then(
      () => {},
      () => {},
    );
    this.#waiting = settled;
    void settled.then(() => {
      if (this.#waiting === settled) this.#waiting = undefined;
    });
    return sent;
  }
}

/**
 * The egress filter of JSON-RPC messages: every result, error, log and progress notification, elicitation and SSE
 * event a server sends is written out from one of these, so each passes here, cleaned of every configured secret (the
 * redactor knows them all, not one call's). An upstream's answer was already cleaned on arrival with the call's own
 * signatures too, before anything was cut from it; this is the guarantee of the channel. A message that holds no
 * secret goes out as it came. One larger than a window of the redactor is redacted in windows, taking turns of the
 * event loop (a result of megabytes, where SVC_MAX_RESULT_BYTES allows one). The text read is kept for the transport
 * (`serialised`).
 */
export function redactMessage(redactor: Redactor, message: JSONRPCMessage): Rewritten {
  const raw = JSON.stringify(message);
  if (raw.length <= WINDOW) return cleaned(redactor, message, raw, redactor.redact(raw));
  return redactor.redactInWindows(raw).then((clean) => cleaned(redactor, message, raw, clean));
}

function cleaned(redactor: Redactor, message: JSONRPCMessage, raw: string, clean: string): JSONRPCMessage {
  if (clean === raw) return remembered(message, raw);
  try {
    return remembered(JSON.parse(clean) as JSONRPCMessage, clean);
  } catch {
    // A redaction that broke the JSON (it cannot, by how the redactor cuts, but the channel must not depend on it):
    // each string is cleaned on its own.
    return cleanStrings(message, redactor) as JSONRPCMessage;
  }
}

/** The JSON text the egress filter read each message it let out as (the message object it returned, the key). */
const texts = new WeakMap<object, string>();
function remembered(message: JSONRPCMessage, text: string): JSONRPCMessage {
  texts.set(message, text);
  return message;
}

/**
 * A message as JSON, for a transport that writes its own lines (stdio): the text the egress filter already made of
 * it, so that each message is serialised once, not once more by the transport; made now for any other message.
 */
export function serialised(message: JSONRPCMessage): string {
  return texts.get(message) ?? JSON.stringify(message);
}

function cleanStrings(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.redact(value);
  if (Array.isArray(value)) return value.map((item) => cleanStrings(item, redactor));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactor.redact(k), cleanStrings(v, redactor)]));
}

/**
 * A message as the 2025 revisions spell it. Resource not found is -32002 there and -32602 in 2026-07-28; the SDK
 * sends -32602 in both eras, so a 2025 answer that carries the unknown URI (and nothing else) gets its own code.
 */
export function toLegacyWire(message: JSONRPCMessage): JSONRPCMessage {
  const error = (message as { error?: { code?: unknown; data?: unknown } }).error;
  if (error?.code !== RPC_ERROR.InvalidParams) return message;
  const data = error.data as Record<string, unknown> | undefined;
  if (typeof data?.uri !== 'string' || Object.keys(data).length !== 1) return message;
  return { ...message, error: { ...error, code: RPC_ERROR.ResourceNotFound } } as JSONRPCMessage;
}
