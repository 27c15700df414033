import type { Answer, AnyOperation } from '../catalogue/types.js';
import {
  GATEWAY_ERROR_CODES,
  RETRYABLE_GATEWAY_CODES,
  RETRYABLE_HTTP_STATUSES,
  ToolFailure,
} from './errors.js';

import { parseJsonExact } from './exact-json.js';
import type { RawResponse } from './http.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Turns an upstream answer into the operation's typed answer (the value its output schema parsed), or throws the
 * ToolFailure that explains it. Pure.
 */
export function interpretResponse<Op extends AnyOperation>(op: Op, res: RawResponse): Answer<Op> {
  const looksJson = /\bjson\b/i.test(res.contentType) || /^\s*[[{]/.test(res.text);
  let parsed: unknown;
  let parseError: Error | undefined;
  if (looksJson) {
    try {
      parsed = parseJsonExact(res.text);
    } catch (error) {
      parseError = error as Error;
    }
  }

  if (res.status < 200 || res.status >= 300) throw httpFailure(res, parsed);
  // An empty success (e.g. 204 to a DELETE) carries no data, not malformed data.
  if (res.text.trim() === '') return parsedAnswer(op, {}, res);

  if (parseError || !looksJson) {
    // XML and JSONP answers pass through as text, whatever content type the upstream gave them.
    if (op.mayAnswerText) return { kind: 'text', value: res.text } as Answer<Op>;
    throw new ToolFailure(
      'malformed_response',
      `upstream answered HTTP ${res.status} with a body that is not valid JSON` +
        (parseError ? ` (${parseError.message})` : ` (content type "${res.contentType || 'none'}")`) +
        `: ${snippet(res.text)}`,
      { httpStatus: res.status },
    );
  }

  if (Array.isArray(parsed) && op.arrayResultKey) parsed = { [op.arrayResultKey]: parsed };
  if (!isObject(parsed)) {
    throw new ToolFailure('unexpected_response', `upstream answered with JSON that is not an object: ${snippet(res.text)}`);
  }
  const gateway = gatewayError(parsed);
  if (gateway) throw gateway(res.status);
  checkEnvelope(op, parsed, res.status);
  if (op.integerFields) normaliseIntegers(parsed, new Set(op.integerFields));
  return parsedAnswer(op, parsed, res);
}

function parsedAnswer<Op extends AnyOperation>(op: Op, body: Json, res: RawResponse): Answer<Op> {
  const check = op.output.safeParse(body);
  if (!check.success) {
    const issue = check.error.issues[0]!;
    throw new ToolFailure(
      'unexpected_response',
      `upstream answer does not have the documented shape (${issue.path.join('.') || 'body'}: ${issue.message}): ${snippet(res.text)}`,
    );
  }
  return { kind: 'json', value: check.data } as Answer<Op>;
}

/**
 * A value of an upstream's error body, as words for a message: text as is, anything else as JSON, cut to a size a
 * message can carry (a megabyte of `details` must not become a megabyte of tool error).
 */
function told(value: unknown, max = 500): string {
  if (value === undefined || value === null) return '';
  return snippet(typeof value === 'string' ? value : JSON.stringify(value), max);
}

/** `{"error":{"errorCode","message","details"}}`, the gateway's error body. */
function gatewayError(body: Json): ((status: number) => ToolFailure) | undefined {
  const error = body.error;
  if (!isObject(error) || error.errorCode === undefined) return undefined;
  const code = told(error.errorCode, 40);
  const meaning = GATEWAY_ERROR_CODES[code];
  const details = error.details ? ` Details: ${told(error.details)}` : '';
  return (status) =>
    new ToolFailure(
      'upstream_error',
      `gateway error ${code}${meaning ? ` (${meaning})` : ''}, HTTP ${status}: ${told(error.message)}.${details}`,
      { httpStatus: status, upstreamCode: code, retryable: RETRYABLE_GATEWAY_CODES.has(code) || status === 429 },
    );
}

function httpFailure(res: RawResponse, parsed: unknown): ToolFailure {
  const retry = { retryable: RETRYABLE_HTTP_STATUSES.has(res.status), retryAfterMs: res.retryAfterMs };
  if (isObject(parsed)) {
    const gateway = gatewayError(parsed);
    if (gateway) {
      const failure = gateway(res.status);
      return new ToolFailure(failure.code, failure.message, {
        ...retry,
        httpStatus: res.status,
        upstreamCode: failure.upstreamCode,
        retryable: failure.retryable || retry.retryable,
      });
    }
    const own = ownError(parsed);
    if (own) {
      return new ToolFailure('upstream_error', `upstream error ${own.code}, HTTP ${res.status}: ${own.message}`, {
        ...retry,
        httpStatus: res.status,
        upstreamCode: own.code,
      });
    }
  }
  const hint =
    res.status === 401 || res.status === 403
      ? ' Check the credentials.'
      : res.retryAfterMs !== undefined
        ? ` The upstream asked to retry after ${Math.ceil(res.retryAfterMs / 1000)} s.`
        : '';
  return new ToolFailure('http_error', `upstream answered HTTP ${res.status}: ${snippet(res.text) || '(empty body)'}.${hint}`, {
    ...retry,
    httpStatus: res.status,
  });
}

/** Service-specific error bodies: N2MT (translation), `status` (maps, text generation), `code`/`message`. */
function ownError(body: Json): { code: string; message: string } | undefined {
  if (body.errorCode !== undefined) {
    return { code: told(body.errorCode, 40), message: told(body.errorMessage ?? body.message) };
  }
  if (isObject(body.status) && body.status.code !== undefined) {
    const { code, name, message } = body.status;
    return { code: told(code, 40), message: [name, message].filter(Boolean).map((v) => told(v)).join(': ') };
  }
  if (body.code !== undefined && body.message !== undefined) {
    return { code: told(body.code, 40), message: told(body.message) };
  }
  return undefined;
}

function checkEnvelope(op: AnyOperation, body: Json, status: number): void {
  const fail = (code: unknown, message: unknown) => {
    throw new ToolFailure('upstream_error', `upstream error ${told(code, 40)}, HTTP ${status}: ${told(message)}`, {
      httpStatus: status,
      upstreamCode: told(code, 40),
    });
  };
  /** Whatever the body says beyond its code, when it has no message of its own. */
  const rest = () => {
    const { code: _, ...others } = body;
    return Object.keys(others).length > 0 ? others : '(the answer says nothing more)';
  };
  const statusObject = isObject(body.status) ? body.status : {};
  switch (op.envelope) {
    case 'code-zero':
      if (body.code !== undefined && Number(body.code) !== 0) fail(body.code, body.message ?? rest());
      break;
    case 'code-success':
      if (body.code !== undefined && body.code !== 'SUCCESS') fail(body.code, body.message ?? rest());
      break;
    case 'success-flag':
      // E9: `availableName: false` is an answer (the name is taken or invalid); `success: false` is a failed check.
      if (body.success === false) fail('success=false', body.message ?? rest());
      break;
    case 'maps-status':
      // 0 ok and 3 "no results" are both successful answers.
      if (statusObject.code !== undefined && ![0, 3].includes(Number(statusObject.code))) {
        fail(statusObject.code, [statusObject.name, statusObject.message].filter(Boolean).join(': '));
      }
      break;
    case 'studio-status':
      if (statusObject.code !== undefined && String(statusObject.code) !== '20000') {
        fail(statusObject.code, statusObject.message);
      }
      break;
  }
}

/** The spec declares these Integer but lets them arrive as digit strings. */
function normaliseIntegers(value: unknown, names: ReadonlySet<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) normaliseIntegers(item, names);
  } else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (names.has(key) && typeof child === 'string' && /^-?\d+$/.test(child.trim())) {
        const n = Number(child.trim());
        if (Number.isSafeInteger(n)) value[key] = n;
      } else {
        normaliseIntegers(child, names);
      }
    }
  }
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
