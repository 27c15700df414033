import type { StreamingRegion } from '../catalogue/fields.js';
import type { AnyOperation, HttpMethod, Operation } from '../catalogue/types.js';
import { decorate } from '../catalogue/compile.js';
import { CallFailure } from './failure.js';

export interface BuiltRequest {
  method: HttpMethod;
  /** Full URL: service origin (with any proxy prefix) + path + query. */
  url: string;
  /** Path and query exactly as they go on the wire: what the gateway signature covers. */
  uri: string;
  /** JSON body, when the operation has one. */
  body?: string;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** Names of the arguments used by an operation's path template. */
function pathParams(op: Operation): string[] {
  return [...op.path.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/**
 * Builds the request of one call from validated arguments. Pure. Path parameters are percent-encoded and
 * `.`, `..` or empty values are refused here too, so a path parameter can never reach another endpoint.
 */
export function buildRequest(
  op: Operation,
  args: Record<string, unknown>,
  baseUrl: string,
  defaultRegion: StreamingRegion,
): BuiltRequest {
  const decorated = decorate(op as AnyOperation);
  const used = new Set<string>([...pathParams(op), ...decorated.notSent]);
  const path = op.path.replace(
    PLACEHOLDER,
    (_, name: string) => decorated.pathValue(name, args, defaultRegion) ?? encodeSegment(name, args[name]),
  );

  const rest = Object.entries(args).filter(([name, value]) => !used.has(name) && value !== undefined);
  let query = '';
  let body: string | undefined;
  if (op.method === 'GET' || op.method === 'DELETE') {
    query = rest.map(([name, value]) => `${encodeStrict(name, name)}=${encodeStrict(name, String(value))}`).join('&');
  } else if (rest.length > 0) {
    body = JSON.stringify(Object.fromEntries(rest));
  }
  const prefix = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const uri = `${prefix}${path}${query ? `?${query}` : ''}`;
  return { method: op.method, url: new URL(baseUrl).origin + uri, uri, body };
}

function encodeSegment(name: string, value: unknown): string {
  const text = value === undefined || value === null ? '' : String(value);
  if (text === '' || text === '.' || text === '..') {
    throw new CallFailure('invalid_input', `${name}: must not be empty, "." or ".."`);
  }
  return encodeStrict(name, text);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * One path segment, query name or query value, percent-encoded so that only RFC 3986's unreserved characters
 * (letters, digits, `-._~`) stay as they are: encodeURIComponent, plus `!'()*`, which it leaves alone. undici parses
 * the URL again (WHATWG rules), which in a query would turn a bare `'` into `%27`; encoded here already, the URI
 * that is signed is the one on the wire. Text with a lone surrogate, which has no UTF-8 form, is refused
 * (invalid_input) before anything is sent.
 */
function encodeStrict(field: string, text: string): string {
  if (LONE_SURROGATE.test(text)) {
    throw new CallFailure(
      'invalid_input',
      `invalid arguments (nothing was sent):\n- ${field}: must be valid Unicode text (it has a lone surrogate)`,
    );
  }
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
