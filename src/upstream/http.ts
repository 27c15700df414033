import type { Dispatcher } from 'undici';
import { LOOPBACK_HOSTS } from '../util/loopback.js';
import { readLimited } from '../util/read-body.js';
import { CallFailure, abortedFailure } from '../failures.js';
import { lateFailure } from './failure.js';
import { retryAfterMs } from './retry-after.js';
import type { ClientSettings } from './settings.js';

/**
 * The HTTP client of every upstream call: one undici dispatcher (a keep-alive pool per origin), created with
 * undici itself on the first call. Starting the server, initialize and tools/list never load undici; `warmUp`
 * lets the CLI load it while the host is still thinking about its first call.
 */
export interface Upstream {
  dispatcher(): Promise<Dispatcher>;
  warmUp(): void;
  /** Lets requests in flight finish, then closes the pool. */
  close(): Promise<void>;
  /** Closes the pool now, failing requests in flight. */
  destroy(): Promise<void>;
}

type Undici = typeof import('undici');

/**
 * undici's public entry, imported on first use. It is CommonJS: Node's import() gives its named exports, while a
 * bundle gives its module.exports as the default export.
 */
function loadUndici(): Promise<Undici> {
  // Kept: a dynamic import() goes through the module loader again on every call, even once the module is loaded.
  return (undici ??= import('undici').then((module) =>
    'Agent' in module ? module : (module as unknown as { default: Undici }).default,
  ));
}
let undici: Promise<Undici> | undefined;

export function createUpstream(settings: Pick<ClientSettings, 'timeoutMs' | 'proxy'>): Upstream {
  let created: Promise<Dispatcher> | undefined;
  const dispatcher = () => (created ??= loadUndici().then((undici) => newDispatcher(undici, settings)));
  /** The pool, if one was made; a failed creation has nothing to close. */
  const made = async () => (created ? await created.catch(() => undefined) : undefined);
  return {
    dispatcher,
    warmUp: () => void dispatcher().catch(() => {}),
    close: async () => void (await (await made())?.close()),
    destroy: async () => void (await (await made())?.destroy()),
  };
}

/** An Upstream over a dispatcher made elsewhere (tests: undici's MockAgent, or an Agent of their own). */
export function upstreamOf(dispatcher: Dispatcher): Upstream {
  return {
    dispatcher: () => Promise.resolve(dispatcher),
    warmUp: () => {},
    close: () => dispatcher.close(),
    destroy: () => dispatcher.destroy(),
  };
}

function newDispatcher(undici: Undici, settings: Pick<ClientSettings, 'timeoutMs' | 'proxy'>): Dispatcher {
  const options = {
    connections: 32,
    keepAliveTimeout: 10_000,
    connect: { timeout: Math.min(settings.timeoutMs, 10_000) },
    headersTimeout: settings.timeoutMs,
    bodyTimeout: settings.timeoutMs,
  };
  const { http, https, noProxy } = settings.proxy;
  if (!http && !https) return new undici.Agent(options);
  // Loopback never goes through a proxy.
  const loopback = LOOPBACK_HOSTS.join(',');
  return new undici.EnvHttpProxyAgent({
    ...options,
    // A CONNECT tunnel for http:// upstreams too, as before undici 8 (which forwards them in absolute form): the
    // proxy passes bytes on and sees no request, so not the credentials and signature it carries.
    proxyTunnel: true,
    httpProxy: http,
    httpsProxy: https ?? http,
    noProxy: noProxy ? `${noProxy},${loopback}` : loopback,
  });
}

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface RawResponse {
  status: number;
  contentType: string;
  text: string;
  retryAfterMs?: number;
  /** The Deprecation and Sunset headers (RFC 9745, RFC 8594), when the upstream sends them. */
  deprecation?: string;
}

export interface SendOptions {
  /** Largest answer read; beyond it the call fails instead of exhausting memory. */
  maxBytes: number;
  /** For the message of a larger answer: the setting the bound came from. */
  maxBytesSetting: string;
  /** Epoch ms by which the answer must be complete. */
  deadline: number;
  now(): number;
  /** The client's cancellation. */
  signal?: AbortSignal;
  /** For the timeout message: the setting the deadline came from. */
  timeoutLabel: string;
}

/**
 * One attempt: sends the request and reads the whole answer (at most `maxBytes`), or throws the
 * CallFailure that says what went wrong. The deadline is a timer of ours, so that fake timers drive it in tests.
 */
export async function send(upstream: Upstream, req: OutgoingRequest, options: SendOptions): Promise<RawResponse> {
  const { request } = await loadUndici();
  const dispatcher = await upstream.dispatcher();
  // The deadline may have passed while the pool was made (the first call loads undici): then no request leaves.
  const remaining = options.deadline - options.now();
  if (remaining <= 0) throw lateFailure(options.timeoutLabel, 'the request could be sent');
  // One signal for the deadline and the caller's own (a listener, not AbortSignal.any: that costs tens of
  // microseconds a call on Node 20); which of them fired is read from the caller's signal.
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), remaining);
  const forward = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) forward();
  else options.signal?.addEventListener('abort', forward, { once: true });
  const signal = stop.signal;
  /** The status of the answer, once its status line and headers came: the request got there. */
  let status: number | undefined;
  const failure = (error: unknown) => {
    const delivery = status === undefined ? 'maybe' : 'yes';
    if (options.signal?.aborted) {
      const aborted = abortedFailure(options.signal, delivery);
      return new CallFailure(aborted.code, aborted.message, { delivery, httpStatus: status });
    }
    if (stop.signal.aborted || isTimeout(error)) {
      const late = `no complete answer from upstream within ${options.timeoutLabel}`;
      return new CallFailure(
        'timeout',
        status === undefined ? late : `the upstream answered HTTP ${status} and then stalled: ${late}`,
        {
          delivery,
          httpStatus: status,
        },
      );
    }
    return status === undefined ? connectionFailure(error, new URL(req.url).origin) : brokenAnswer(error, status);
  };
  try {
    const res = await request(req.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      dispatcher,
      signal,
      headersTimeout: remaining,
      bodyTimeout: remaining,
    });
    status = res.statusCode;
    const body = await readLimited(res.body, { maxBytes: options.maxBytes, overflow: 'destroy' });
    if (body.kind === 'too-large') {
      throw new CallFailure(
        'malformed_response',
        `upstream answer (HTTP ${res.statusCode}) is larger than ${options.maxBytes} bytes (${options.maxBytesSetting}) ` +
          'and was not read: the upstream may have done the work (billed, where the service bills). Ask for less, ' +
          `or have ${options.maxBytesSetting} raised, to get it`,
        {
          httpStatus: res.statusCode,
        },
      );
    }
    if (body.kind === 'aborted') throw failure(Object.assign(new Error('body cut off'), { code: 'UND_ERR_SOCKET' }));
    return {
      status: res.statusCode,
      contentType: String(res.headers['content-type'] ?? ''),
      text: decode(body.bytes, res.statusCode, res.headers['content-encoding']),
      retryAfterMs: retryAfterMs(res.headers['retry-after'], options.now()),
      ...deprecation(res.headers),
    };
  } catch (error) {
    if (error instanceof CallFailure) throw error;
    throw failure(error);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forward);
  }
}

/** One decoder for every answer: decode() without `stream` keeps no state between calls. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Every answer is text (JSON, XML, JSONP): bytes that are not UTF-8 (compressed, binary) are an error, not a result.
 */
function decode(bytes: Buffer, status: number, encoding: string | string[] | undefined): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    const how = encoding ? ` (Content-Encoding: ${String(encoding)}, which was not asked for)` : '';
    throw new CallFailure(
      'malformed_response',
      `upstream answered HTTP ${status} with ${bytes.length} bytes that are not UTF-8 text${how}`,
      {
        httpStatus: status,
      },
    );
  }
}

const isTimeout = (error: unknown) => {
  const code = (error as { code?: string })?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
};

const CONNECTION_WORDS: Record<string, string> = {
  ECONNRESET: 'the connection was reset',
  UND_ERR_SOCKET: 'the connection closed before the answer was complete',
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: 'the host name could not be resolved',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  EAI_AGAIN: 'the host name could not be resolved (temporary)',
};
const RETRYABLE_CONNECTION_CODES = new Set([
  'ECONNRESET',
  'UND_ERR_SOCKET',
  'ECONNREFUSED',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Failures of making the connection: the request provably never left. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** The code of a connection error and what it means in words. */
function connectionError(error: unknown): { code: string; what: string } {
  const err = error as { code?: string; cause?: { code?: string }; message?: string };
  const code = err?.cause?.code ?? err?.code ?? 'UNKNOWN';
  return { code, what: CONNECTION_WORDS[code] ?? `the request failed (${err?.message ?? code})` };
}

/** The connection failed before any answer came. */
function connectionFailure(error: unknown, origin: string): CallFailure {
  const { code, what } = connectionError(error);
  return new CallFailure('connection_failed', `could not reach ${origin}: ${what} [${code}]`, {
    retryable: RETRYABLE_CONNECTION_CODES.has(code),
    delivery: NOT_SENT_CODES.has(code) ? 'no' : 'maybe',
  });
}

/** The status line and headers came, then the connection broke: the request got there, and may have done its work. */
function brokenAnswer(error: unknown, status: number): CallFailure {
  const { code } = connectionError(error);
  return new CallFailure(
    'connection_failed',
    `the upstream answered HTTP ${status} and then the connection broke before the answer was complete [${code}]`,
    {
      retryable: RETRYABLE_CONNECTION_CODES.has(code),
      delivery: 'yes',
      httpStatus: status,
    },
  );
}

function deprecation(headers: Record<string, string | string[] | undefined>): { deprecation?: string } {
  const said = ['deprecation', 'sunset']
    .filter((name) => headers[name] !== undefined)
    // Whole: the notice quoting them is cut only once it has been redacted (a cut spelling of a secret is not found).
    .map((name) => `${name}: ${String(headers[name])}`);
  return said.length > 0 ? { deprecation: said.join(', ') } : {};
}
