import { errors as undiciErrors, request, type Dispatcher } from 'undici';
import type { Operation } from '../catalogue/types.js';
import type { Config } from '../config.js';
import { authHeaders } from './auth.js';
import { resolveTarget } from './credentials.js';
import { ToolFailure } from './errors.js';
import { MAX_RESPONSE_BYTES } from './http.js';
import { buildRequest, type BuiltRequest } from './request.js';
import { interpretResponse, type Outcome, type RawResponse } from './response.js';
import { formatIssues } from './validation.js';
import { USER_AGENT } from '../version.js';

export interface ExecutorDeps {
  config: Pick<Config, 'serviceUrls' | 'credentials' | 'streamingRegion' | 'timeoutMs'>;
  dispatcher: Dispatcher;
  /** Epoch milliseconds. */
  now(): number;
  /** A fresh request id (text-generation requests carry one). */
  requestId(): string;
  /** Uniform in [0, 1), for retry jitter. */
  random(): number;
}

export interface CallRecord {
  attempts: number;
  status?: number;
}

const MAX_ATTEMPTS = 3;
const BASE_BACKOFF_MS = 200;

/**
 * The one executor: validate -> build -> sign -> send -> interpret, with retries for operations that are
 * safe to repeat and one deadline (SVC_TIMEOUT_MS) over all attempts. Throws ToolFailure.
 */
export async function execute(
  op: Operation,
  rawArgs: unknown,
  deps: ExecutorDeps,
  signal?: AbortSignal,
  record: CallRecord = { attempts: 0 },
): Promise<Outcome> {
  // reportInput lets the error say "required" when a field is missing rather than only what was expected.
  const parsed = op.input.safeParse(rawArgs ?? {}, { reportInput: true });
  if (!parsed.success) throw new ToolFailure('invalid_input', formatIssues(parsed.error.issues));
  const args = parsed.data as Record<string, unknown>;
  const { baseUrl, credential } = resolveTarget(deps.config, op.service, op.auth);
  const built = buildRequest(op, args, baseUrl, deps.config.streamingRegion);

  const deadline = deps.now() + deps.config.timeoutMs;
  const repeatable = op.annotations.readOnlyHint || op.annotations.idempotentHint;
  for (;;) {
    record.attempts++;
    try {
      const headers = {
        ...authHeaders(credential, { method: built.method, uri: built.uri, now: deps.now(), requestId: deps.requestId() }),
        // XML and JSONP answers (E5) must not be refused for an Accept header.
        accept: op.mayAnswerText ? '*/*' : 'application/json',
        'user-agent': USER_AGENT,
        ...(built.body !== undefined ? { 'content-type': 'application/json' } : {}),
      };
      const raw = await send(built, headers, deps, deadline, signal);
      record.status = raw.status;
      return interpretResponse(op, raw);
    } catch (error) {
      if (!(error instanceof ToolFailure)) throw error;
      const wait = error.retryAfterMs ?? BASE_BACKOFF_MS * 2 ** (record.attempts - 1) * (0.5 + deps.random());
      const canRetry =
        repeatable && error.retryable && record.attempts < MAX_ATTEMPTS && deps.now() + wait < deadline && !signal?.aborted;
      if (!canRetry) throw error;
      await sleep(wait, signal);
    }
  }
}

async function send(
  built: BuiltRequest,
  headers: Record<string, string>,
  deps: ExecutorDeps,
  deadline: number,
  signal?: AbortSignal,
): Promise<RawResponse> {
  const remaining = Math.max(1, deadline - deps.now());
  const timeout = AbortSignal.timeout(remaining);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    const res = await request(built.url, {
      method: built.method,
      headers,
      body: built.body,
      dispatcher: deps.dispatcher,
      signal: combined,
      headersTimeout: remaining,
      bodyTimeout: remaining,
    });
    const text = await readText(res.body);
    const contentType = String(res.headers['content-type'] ?? '');
    return { status: res.statusCode, contentType, text, retryAfterMs: retryAfter(res.headers['retry-after'], deps.now()) };
  } catch (error) {
    if (error instanceof ToolFailure) throw error;
    if (signal?.aborted) throw new ToolFailure('cancelled', 'the call was cancelled by the client');
    if (timeout.aborted || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
      throw new ToolFailure('timeout', `no complete answer from upstream within ${deps.config.timeoutMs} ms (SVC_TIMEOUT_MS)`, {
        retryable: false,
      });
    }
    throw connectionFailure(error, new URL(built.url).origin);
  }
}

async function readText(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > MAX_RESPONSE_BYTES) {
      body.destroy();
      throw new ToolFailure('malformed_response', `upstream answer is larger than ${MAX_RESPONSE_BYTES} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function connectionFailure(error: unknown, origin: string): ToolFailure {
  const err = error as { code?: string; cause?: { code?: string }; message?: string };
  const code = err.cause?.code ?? err.code ?? 'UNKNOWN';
  const words: Record<string, string> = {
    ECONNRESET: 'the connection was reset',
    UND_ERR_SOCKET: 'the connection closed before the answer was complete',
    ECONNREFUSED: 'the connection was refused',
    ENOTFOUND: 'the host name could not be resolved',
    UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
    EAI_AGAIN: 'the host name could not be resolved (temporary)',
  };
  const what = words[code] ?? `the request failed (${err.message ?? code})`;
  return new ToolFailure('connection_failed', `could not reach ${origin}: ${what} [${code}]`, {
    retryable: ['ECONNRESET', 'UND_ERR_SOCKET', 'ECONNREFUSED', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT'].includes(code),
  });
}

/** Retry-After is seconds or an HTTP date. */
function retryAfter(header: string | string[] | undefined, now: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
