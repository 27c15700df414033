import type { AnswerForm, CompiledOperation } from '../catalogue/compile.js';
import { GATEWAY_ERRORS, HTTP_STATUS_LEADS } from '../catalogue/gateway-errors.js';
import type { Answer, AnyOperation } from '../catalogue/types.js';
import { CallFailure } from '../failures.js';
import { GATEWAY_ERROR_CODES, RETRYABLE_GATEWAY_CODES, RETRYABLE_HTTP_STATUSES } from './failure.js';
import type { RawResponse } from './http.js';
import { readAnswer } from './read-answer.js';
import { parseJsonInSlices, TooDeep, type CountedList } from './sliced-json.js';
import { nextTurn } from '../util/next-turn.js';
import { jsonpContent, xmlStatus, type XmlStatus } from './text-answers.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What an answer's body is: JSON (JSONP's included), text (E5's XML, with its status when one is found), or neither.
 */
type Body =
  | { kind: 'json'; value: unknown; jsonp: boolean; counted: CountedList[] }
  | { kind: 'text'; status?: XmlStatus }
  | { kind: 'malformed'; reason: string; expected: string };

/**
 * Turns an upstream answer into the operation's typed answer, or throws the CallFailure that explains it. Pure but
 * for `pause`, awaited between slices of a large answer's work (read-answer.ts). A tolerant reader: nulls, missing
 * optional fields, extra fields and values of another type than the spec's never fail a call; an answer without what
 * a success of the operation carries (the required members of its output schema, and its envelope's success code)
 * always does, and says so. Of a long list only the first `keepItems` items are kept (sliced-json.ts); the answer
 * says which lists were cut and how long they were. JSONP must come wrapped in the `callback` asked for.
 */
export async function interpretResponse<Op extends AnyOperation>(
  operation: CompiledOperation<Op>,
  res: RawResponse,
  asked: AnswerForm = 'json',
  pause: () => Promise<void> = nextTurn,
  { keepItems = Infinity, callback }: { keepItems?: number; callback?: string } = {},
): Promise<Answer<Op>> {
  const body = await readBody(operation, res, { asked, callback }, pause, keepItems);
  if (res.status < 200 || res.status >= 300) throw withStatusLead(res.status, httpFailure(res, body));
  if (res.text.trim() === '') throw lacking(operation, res, 'an empty body');

  if (body.kind === 'malformed') {
    throw new CallFailure(
      'malformed_response',
      `upstream answered HTTP ${res.status} with a body that is not ${body.expected} (${body.reason}): ${snippet(res.text)}`,
      {
        httpStatus: res.status,
      },
    );
  }
  if (body.kind === 'text') {
    // The XML layout is not shown in the spec: a status is checked when one is found, and the text passes as it came.
    if (body.status) checkEnvelope(operation, { status: body.status }, res.status);
    return { kind: 'text', value: res.text } as Answer<Op>;
  }

  const parsed = operation.asObject(body.value);
  // A bare list at the root is a member of the object it becomes.
  const root = parsed === body.value ? [] : Object.keys(parsed as Json);
  const counted = body.counted.map(({ keys, total }) => ({ keys: [...root, ...keys], total }));
  if (!isObject(parsed)) {
    throw new CallFailure(
      'unexpected_response',
      `upstream answered with JSON that is not an object: ${snippet(res.text)}`,
      { httpStatus: res.status },
    );
  }
  const gateway = gatewayError(parsed);
  if (gateway) throw gateway(res.status);
  checkEnvelope(operation, parsed, res.status);
  const read = await readAnswer(operation.answerPlan(), parsed, operation.successPaths(), pause);
  if ('lacking' in read) throw lacking(operation, res, read.lacking.join(', '), `: ${snippet(res.text)}`);
  const { value } = read;
  // A JSONP answer was asked for as such: it passes as it came, once its status is known to be a success.
  return (
    body.jsonp ? { kind: 'text', value: res.text } : { kind: 'json', value, ...(counted.length > 0 ? { counted } : {}) }
  ) as Answer<Op>;
}

/**
 * The body as the form it was asked in: JSON (also read when XML or JSONP was asked and JSON came), JSONP
 * (`callback(JSON)` and nothing else, with the callback asked for), or XML as text. A body of another form than the
 * one asked for is malformed: an HTML login page, `OK` as text/plain or a truncated JSON body is no answer, whatever
 * its status.
 */
async function readBody(
  operation: CompiledOperation,
  res: RawResponse,
  { asked, callback }: { asked: AnswerForm; callback?: string },
  pause: () => Promise<void>,
  keepItems: number,
): Promise<Body> {
  const looksJson = /\bjson\b/i.test(res.contentType) || /^\s*[[{]/.test(res.text);
  const textual = operation.answersText && asked !== 'json';
  const jsonp = textual && asked === 'jsonp' ? jsonpContent(res.text) : undefined;
  // Another name is another page's answer (a cache, a proxy), whatever it holds.
  const otherCallback = jsonp !== undefined && callback !== undefined && jsonp.callback !== callback;
  // The JSON to try, in order: the body as it came, then (JSONP asked) inside its callback; parsed at one place.
  const tries = [
    ...(looksJson ? [{ json: res.text, jsonp: false, expected: 'valid JSON' }] : []),
    ...(jsonp && !otherCallback ? [{ json: jsonp.json, jsonp: true, expected: 'JSONP of valid JSON' }] : []),
  ];
  let failed = { reason: `content type "${res.contentType || 'none'}"`, expected: 'valid JSON' };
  for (const tried of tries) {
    try {
      return { kind: 'json', ...(await parseJsonInSlices(tried.json, pause, keepItems)), jsonp: tried.jsonp };
    } catch (error) {
      // A refusal (not 2xx) is read as the text it is: its status says what matters.
      if (error instanceof TooDeep && res.status >= 200 && res.status < 300) throw tooDeep(res, error);
      failed = { reason: (error as Error).message, expected: tried.expected };
    }
  }
  if (!textual) return { kind: 'malformed', reason: failed.reason, expected: 'valid JSON' };
  if (asked !== 'jsonp') return { kind: 'text', status: xmlStatus(res.text) };
  if (jsonp === undefined) return { kind: 'malformed', reason: 'not callback(...)', expected: 'JSONP' };
  if (otherCallback) {
    const came = `wrapped in ${snippet(jsonp.callback, 100)}(...) where ${callback}(...) was asked for`;
    return { kind: 'malformed', reason: came, expected: `JSONP of the callback ${callback}` };
  }
  return { kind: 'malformed', ...failed };
}

/**
 * JSON this server cannot carry, whatever its status: said as such, not as broken JSON. For a write answered 2xx, the
 * executor adds that the upstream accepted it.
 */
function tooDeep(res: RawResponse, error: TooDeep): CallFailure {
  return new CallFailure('malformed_response', `upstream answered HTTP ${res.status} with JSON ${error.message}`, {
    httpStatus: res.status,
  });
}

/**
 * The failure of an answer without what a success carries. For a write, the executor adds that it may have taken
 * effect.
 */
function lacking(operation: CompiledOperation, res: RawResponse, what: string, after = ''): CallFailure {
  return new CallFailure(
    'unexpected_response',
    `the upstream answered HTTP ${res.status} with ${what}; a success of ${operation.id} carries ${successWords(operation)}${after}`,
    { httpStatus: res.status },
  );
}

/** "code SUCCESS and data": the success paths, with the value the envelope requires where it requires one. */
function successWords(operation: CompiledOperation): string {
  const envelope = operation.envelope;
  const words = operation.successPaths().map((path) => {
    const name = path.join('.');
    return envelope && envelope.path.join('.') === name ? `${name} ${envelope.values.join(' or ')}` : name;
  });
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? 'a body');
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/**
 * A value of an upstream's error body, as words for a message: text as is, anything else as JSON, cut to a size a
 * message can carry (a megabyte of `details` must not become a megabyte of tool error).
 */
function told(value: unknown, max = 500): string {
  if (value === undefined || value === null) return '';
  return snippet(typeof value === 'string' ? value : JSON.stringify(value), max);
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

/** A status whose meaning the body may not say (409: conflict) comes first. */
function withStatusLead(status: number, failure: CallFailure): CallFailure {
  const lead = HTTP_STATUS_LEADS[status];
  return lead ? failure.withMessage(`${lead} ${failure.message}`) : failure;
}

function httpFailure(res: RawResponse, body: Body): CallFailure {
  const retry = { retryable: RETRYABLE_HTTP_STATUSES.has(res.status), retryAfterMs: res.retryAfterMs };
  const parsed = body.kind === 'json' ? body.value : undefined;
  if (isObject(parsed)) {
    const gateway = gatewayError(parsed);
    if (gateway) {
      const failure = gateway(res.status);
      const asked = res.retryAfterMs === undefined ? '' : ` ${retryAfterWords(res.retryAfterMs)}`;
      return new CallFailure(failure.code, `${failure.message}${asked}`, {
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
    return new CallFailure('upstream_error', `upstream error ${own.code}: ${own.message}${httpNote(res.status)}`, {
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
    `upstream answered HTTP ${res.status}: ${snippet(res.text) || '(empty body)'}.${hint}`,
    {
      ...retry,
      httpStatus: res.status,
    },
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
function checkEnvelope(operation: CompiledOperation, body: Json, status: number): void {
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

/** A short, single-line, tag-free excerpt of a body for error messages (the executor redacts the body before). */
function snippet(text: string, max = 300): string {
  const flat = text
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
