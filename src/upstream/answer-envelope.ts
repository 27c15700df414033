import type { CompiledOperation } from '../catalogue/compile.js';
import {
  GATEWAY_ERRORS,
  GATEWAY_ERROR_CODES,
  HTTP_STATUS_LEADS,
  RETRYABLE_GATEWAY_CODES,
} from '../catalogue/gateway-errors.js';
import type { Body } from './answer-parse.js';
import { snippet, told } from './answer-words.js';
import type { CountedList } from './sliced-json.js';
import { CallFailure } from '../failures.js';
import type { RawResponse } from './http.js';

/** Statuses that say the upstream could not answer now (throttled, or a gateway between): worth another attempt. */
const RETRYABLE_HTTP_STATUSES = new Set([429, 502, 503, 504]);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A body whose status and envelope say it is no failure: JSON as an object, text, or nothing. */
export type Enveloped =
  { kind: 'json'; value: Json; jsonp: boolean; counted: CountedList[] } | { kind: 'text' } | { kind: 'empty' };

/**
 * The third stage of an answer's chain: what the status and the envelope say. A status other than 2xx is a failure in
 * the words of the body (the gateway's error body, a service's own) or of the status; a 2xx whose envelope holds the
 * gateway's error body, or a code other than its success code, is one too. The JSON that passes is an object (a bare
 * list at the root a member of the object it becomes), its cut lists counted from that root.
 */
export function checkEnvelope(operation: CompiledOperation, res: RawResponse, body: Body): Enveloped {
  if (res.status < 200 || res.status >= 300) throw httpFailure(res, body);
  if (body.kind === 'text') {
    // The XML layout is not shown in the spec: a status is checked when one is found, and the text passes as it came.
    if (body.status) checkSuccessCode(operation, { status: body.status }, res.status);
    return { kind: 'text' };
  }
  if (body.kind === 'empty') return body;
  const parsed = operation.asObject(body.value);
  if (!isObject(parsed)) {
    throw new CallFailure(
      'unexpected_response',
      `upstream answered with JSON that is not an object: ${snippet(res.text)}`,
      { httpStatus: res.status },
    );
  }
  const gateway = gatewayError(parsed);
  if (gateway) throw gateway(res.status);
  checkSuccessCode(operation, parsed, res.status);
  const root = parsed === body.value ? [] : Object.keys(parsed);
  const counted = body.counted.map(({ keys, total }) => ({ keys: [...root, ...keys], total }));
  return { kind: 'json', value: parsed, jsonp: body.jsonp, counted };
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** The HTTP status after an upstream's own code and words, where it adds something (not a 2xx). */
const httpNote = (status: number) => (status >= 200 && status < 300 ? '' : ` (HTTP ${status})`);

/** The upstream's Retry-After, passed on: a wait beyond the call's deadline is the caller's to make. */
const retryAfterWords = (ms: number) => `The upstream asked to retry after ${Math.ceil(ms / 1000)} s.`;

/** `{"error":{"errorCode","message","details"}}`, the gateway's error body. */
function gatewayError(body: Json): ((status: number) => CallFailure) | undefined {
  const error = body.error;
  if (!isObject(error) || error.errorCode === undefined) return undefined;
  const code = told(error.errorCode, 40);
  // One code and the upstream's own words; the code's meaning only when the upstream gave none.
  const said = told(error.message) || GATEWAY_ERROR_CODES[code] || '(no message)';
  const details = error.details ? ` Details: ${told(error.details)}` : '';
  return (status) =>
    new CallFailure(
      'upstream_error',
      `gateway error ${code}: ${said.replace(/\.$/, '')}.${details}${httpNote(status)}`,
      {
        httpStatus: status,
        upstreamCode: code,
        retryable: RETRYABLE_GATEWAY_CODES.has(code) || (status === 429 && code !== GATEWAY_ERRORS.quotaExceeded.code),
      },
    );
}

/** The failure of a status other than 2xx; a status whose meaning the body may not say (409: conflict) comes first. */
function httpFailure(res: RawResponse, body: Body): CallFailure {
  const lead = HTTP_STATUS_LEADS[res.status];
  const led = (message: string) => (lead ? `${lead} ${message}` : message);
  const retry = { retryable: RETRYABLE_HTTP_STATUSES.has(res.status), retryAfterMs: res.retryAfterMs };
  const parsed = body.kind === 'json' ? body.value : undefined;
  if (isObject(parsed)) {
    const gateway = gatewayError(parsed);
    if (gateway) {
      const failure = gateway(res.status);
      const asked = res.retryAfterMs === undefined ? '' : ` ${retryAfterWords(res.retryAfterMs)}`;
      return new CallFailure(failure.code, led(`${failure.message}${asked}`), {
        ...retry,
        httpStatus: res.status,
        upstreamCode: failure.upstreamCode,
        // A quota is spent until it is renewed: another attempt in a moment fails the same way (HTTP 429 or not).
        retryable: failure.upstreamCode !== GATEWAY_ERRORS.quotaExceeded.code && (failure.retryable || retry.retryable),
      });
    }
  }
  const own = isObject(parsed)
    ? ownError(parsed)
    : body.kind === 'text' && body.status
      ? ownError({ status: body.status })
      : undefined;
  if (own) {
    return new CallFailure('upstream_error', led(`upstream error ${own.code}: ${own.message}${httpNote(res.status)}`), {
      ...retry,
      httpStatus: res.status,
      upstreamCode: own.code,
    });
  }
  const hint =
    res.status === 401 || res.status === 403
      ? ' Check the credentials.'
      : res.retryAfterMs !== undefined
        ? ` ${retryAfterWords(res.retryAfterMs)}`
        : '';
  return new CallFailure(
    'http_error',
    led(`upstream answered HTTP ${res.status}: ${snippet(res.text) || '(empty body)'}.${hint}`),
    { ...retry, httpStatus: res.status },
  );
}

/** Service-specific error bodies: N2MT (translation), `status` (maps, text generation), `code`/`message`. */
function ownError(body: Json): { code: string; message: string } | undefined {
  if (body.errorCode !== undefined) {
    return { code: told(body.errorCode, 40), message: told(body.errorMessage ?? body.message) };
  }
  if (isObject(body.status) && body.status.code !== undefined) {
    const { code, name, message } = body.status;
    return {
      code: told(code, 40),
      message: [name, message]
        .filter(Boolean)
        .map((v) => told(v))
        .join(': '),
    };
  }
  if (body.code !== undefined && body.message !== undefined) {
    return { code: told(body.code, 40), message: told(body.message) };
  }
  return undefined;
}

/**
 * A 2xx answer whose envelope says the call failed (E1/E2 code, E5/E12 status.code, E9 success, E15 code): a
 * documented failure, so the upstream refused the request and nothing is to be checked. Its words are what the body
 * says. An envelope without its code is left to the output schema, which says whether a success must carry one.
 */
function checkSuccessCode(operation: CompiledOperation, body: Json, status: number): void {
  const envelope = operation.envelope;
  if (!envelope) return;
  const { path, values } = envelope;
  const holder = valueAt(body, path.slice(0, -1));
  const key = path.at(-1)!;
  if (!isObject(holder) || holder[key] === undefined || holder[key] === null) return;
  const value = holder[key];
  if (values.some((v) => String(v) === String(value))) return;
  const code = envelope.kind === 'success-flag' ? `${key}=${told(value, 30)}` : told(value, 40);
  // A nested status (maps, text generation) has a name beside its message; a body's own `name` is data (E8's scanner).
  const said = (path.length > 1 ? [holder.name, holder.message] : [holder.message])
    .filter((v) => v !== undefined && v !== null && v !== '')
    .map((v) => told(v));
  const { [key]: _, ...others } = path.length === 1 ? body : holder;
  const message =
    said.length > 0
      ? said.join(': ')
      : Object.keys(others).length > 0
        ? told(others)
        : '(the answer says nothing more)';
  throw new CallFailure('upstream_error', `upstream error ${code}: ${message}${httpNote(status)}`, {
    httpStatus: status,
    upstreamCode: code,
    refused: true,
  });
}
