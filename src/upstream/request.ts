import { PATH_PLACEHOLDER, type AnswerForm, type CompiledOperation } from '../catalogue/compile.js';
import type { AnyOperation, HttpMethod } from '../catalogue/types.js';
import type { Credential } from './auth.js';
import { resolveTarget } from './credentials.js';
import type { ClientSettings } from './settings.js';
import { invalidArguments } from '../failures.js';

export interface BuiltRequest {
  method: HttpMethod;
  /** Full URL: service origin (with any proxy prefix) + path + query. */
  url: string;
  /** Path and query exactly as they go on the wire: what the gateway signature covers. */
  uri: string;
  /** JSON body, when the operation has one. */
  body?: string;
}

/** A validated call, built and ready to be signed: what a dry run shows and what each attempt signs and sends. */
export interface PreparedRequest<Op extends AnyOperation = AnyOperation> {
  operation: CompiledOperation<Op>;
  built: BuiltRequest;
  credential: Credential;
  /** The form the answer was asked in: an answer in another is malformed (a login page is no JSON answer). */
  asked: AnswerForm;
  /** JSONP's callback name, as asked: an answer wrapped in another is not this call's. */
  callback?: string;
}

/** The request of validated arguments, with the credential to sign it, or the failure naming what to configure. */
export function prepareRequest<Op extends AnyOperation>(
  operation: CompiledOperation<Op>,
  args: Record<string, unknown>,
  settings: Pick<ClientSettings, 'serviceUrls' | 'credentials' | 'words'>,
): PreparedRequest<Op> {
  const { baseUrl, credential } = resolveTarget(settings, operation.service, operation.auth);
  const asked = operation.askedForm(args);
  return {
    operation,
    built: buildRequest(operation, args, baseUrl),
    credential,
    asked,
    ...(asked === 'jsonp' ? { callback: String(args.callback) } : {}),
  };
}

/**
 * Builds the request of one call from validated arguments. Pure. Path parameters are percent-encoded and
 * `.`, `..` or empty values are refused here too, so a path parameter can never reach another endpoint.
 */
export function buildRequest(
  operation: CompiledOperation<AnyOperation>,
  args: Record<string, unknown>,
  baseUrl: string,
): BuiltRequest {
  const used = new Set<string>([...operation.pathParams, ...operation.notSent]);
  const path = operation.spec.path.replace(
    PATH_PLACEHOLDER,
    (_, name: string) => operation.pathValue(name, args) ?? encodeSegment(name, args[name]),
  );

  const rest = Object.entries(args).filter(([name, value]) => !used.has(name) && value !== undefined);
  let query = '';
  let body: string | undefined;
  if (operation.method === 'GET' || operation.method === 'DELETE') {
    query = rest.map(([name, value]) => `${encodeStrict(name, name)}=${encodeStrict(name, String(value))}`).join('&');
  } else if (rest.length > 0) {
    body = JSON.stringify(Object.fromEntries(rest));
  }
  const prefix = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const uri = `${prefix}${path}${query ? `?${query}` : ''}`;
  return { method: operation.method, url: new URL(baseUrl).origin + uri, uri, body };
}

function encodeSegment(name: string, value: unknown): string {
  const text = value === undefined || value === null ? '' : String(value);
  if (text === '' || text === '.' || text === '..') {
    throw invalidArguments([`${name}: must not be empty, "." or ".."`]);
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
    throw invalidArguments([`${field}: must be valid Unicode text (it has a lone surrogate)`]);
  }
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
