import { specTypeSchemas } from '@modelcontextprotocol/server';
import { PROTOTYPE_KEYS, prototypeKeyRule } from '../call/arguments.js';
import { RPC_ERROR } from '../jsonrpc-errors.js';

/** The SDK's own schema of a message (core's export would load a second copy of the SDK's schemas at start-up). */
const readable = (message: unknown) => !specTypeSchemas.JSONRPCMessage['~standard'].validate(message).issues;

/**
 * What JSON-RPC 2.0 and MCP require of one incoming message, checked before the SDK sees it: the SDK drops a
 * message it cannot read without a word, and a client waiting for an answer would wait forever.
 */
export interface RpcError {
  code: number;
  message: string;
}

/** The error answer of a message that cannot be answered with its own id (JSON-RPC: id null). */
export function errorAnswer(error: RpcError): string {
  return JSON.stringify({ jsonrpc: '2.0', id: null, error });
}

/** Undefined when the message may go on; otherwise the error to answer with (id null). */
export function invalidMessage(message: unknown): RpcError | undefined {
  const invalid = (why: string): RpcError => ({ code: RPC_ERROR.InvalidRequest, message: `Invalid Request: ${why}` });
  if (Array.isArray(message))
    return invalid(
      'batches are not supported on this connection (MCP 2025-06-18 removed them): send one message per line or request',
    );
  if (typeof message !== 'object' || message === null) return invalid('a message must be a JSON object');
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return invalid('"jsonrpc" must be "2.0"');
  const isResponse = 'result' in m || 'error' in m;
  if (!('method' in m) && !isResponse) return invalid('a message needs a "method" (or a "result" or "error")');
  if ('method' in m && typeof m.method !== 'string') return invalid('"method" must be a string');
  if ('id' in m && !validId(m.id)) return invalid('"id" must be a string or an integer (MCP allows no null id)');
  return undefined;
}

/**
 * Deeper than this, a message is refused before anything parses it further: no MCP message comes near it, and the
 * arguments stage refuses arguments deeper than 32 levels by name, as a tool error, below it.
 */
export const MAX_MESSAGE_DEPTH = 256;

/**
 * A message nested deeper than MAX_MESSAGE_DEPTH: refused as an invalid request (the SDK's schemas recurse, and a
 * request thousands of levels deep ended in HTTP 500). An iterative walk, bounded by the message's size.
 */
export function tooDeep(message: unknown): RpcError | undefined {
  const stack: [unknown, number][] = [[message, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > MAX_MESSAGE_DEPTH) {
      return {
        code: RPC_ERROR.InvalidRequest,
        message: `Invalid Request: the message is nested deeper than ${MAX_MESSAGE_DEPTH} levels`,
      };
    }
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return undefined;
}

/**
 * A request whose arguments hold a key that names an object's prototype: the SDK's parser silently drops a
 * `__proto__` at the top of `arguments`, so the call would run on other arguments than the client sent. Refused here,
 * naming the key; the arguments stage refuses the same keys at any depth. The walk is bounded by the line or body
 * size, and stops at the first key found.
 */
export function prototypeKeyIn(message: unknown): RpcError | undefined {
  const params = (message as { params?: unknown }).params;
  if (!isPlainObject(params) || !('arguments' in params)) return undefined;
  const found = findPrototypeKey(params.arguments, 'arguments');
  if (found === undefined) return undefined;
  return {
    code: RPC_ERROR.InvalidParams,
    message: `Invalid params: ${prototypeKeyRule(found)}`,
  };
}

function findPrototypeKey(value: unknown, path: string): string | undefined {
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length > 0) {
    const [node, at] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    for (const key of Object.keys(node)) {
      if (PROTOTYPE_KEYS.has(key)) return `${at}.${key}`;
      stack.push([(node as Record<string, unknown>)[key], `${at}.${key}`]);
    }
  }
  return undefined;
}

/** The first protocol version without JSON-RPC batches; an HTTP client that sends no Mcp-Protocol-Version is older. */
const NO_BATCHES_FROM = '2025-06-18';
const VERSION_WITHOUT_HEADER = '2025-03-26';

/** Whether a connection of this protocol version may send JSON-RPC batches (2025-03-26 and earlier had them). */
export const batchesAllowed = (protocolVersion: string | undefined) =>
  (protocolVersion ?? VERSION_WITHOUT_HEADER) < NO_BATCHES_FROM;

/**
 * The check of a message or batch before the SDK sees it (which would answer a valid JSON body it cannot read with a
 * parse error, and an empty batch with nothing): every message must pass `invalidMessage` and be readable. A batch is
 * refused under 2025-06-18 and later, which removed batches; under earlier versions, which had them, each of its
 * messages is checked and one invalid message refuses the whole batch (nothing of it is handled). Over HTTP the
 * version is the request's Mcp-Protocol-Version header; over stdio, the one the connection negotiated.
 */
export function invalidBody(body: unknown, protocolVersion: string | undefined): RpcError | undefined {
  const check = (message: unknown) => invalidMessage(message) ?? unreadableMessage(message) ?? prototypeKeyIn(message);
  const deep = tooDeep(body);
  if (deep) return deep;
  if (!Array.isArray(body) || !batchesAllowed(protocolVersion)) return check(body);
  if (body.length === 0) return { code: RPC_ERROR.InvalidRequest, message: 'Invalid Request: an empty batch' };
  for (const [index, message] of body.entries()) {
    const error = check(message);
    if (error) return { ...error, message: `${error.message} (message ${index + 1} of the batch)` };
  }
  return undefined;
}

const validId = (id: unknown) => typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));

/**
 * A message `invalidMessage` let through that the SDK still cannot read (e.g. `params` not an object, a member
 * JSON-RPC does not have): the SDK's transports would drop it without a word (stdio) or call it a parse error
 * (HTTP). Undefined when it can be read.
 */
export function unreadableMessage(message: unknown): RpcError | undefined {
  if (plainRequest(message) || readable(message)) return undefined;
  return {
    code: RPC_ERROR.InvalidRequest,
    message:
      'Invalid Request: not a request, notification or response of MCP ' +
      '("params" and "result" must be objects; no members other than jsonrpc, id, method, params, result, error)',
  };
}

const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * A request or notification of the everyday shape, which the SDK's schema is sure to accept (given that
 * invalidMessage let it through): checked by hand, since the schema costs more than the rest of reading a line.
 * `_meta` is an open object whose only checked members are progressToken and the related-task key: other keys (the
 * 2026-07-28 envelope of every request among them) pass. Anything else (responses, the related-task key) is left to
 * the schema.
 */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

function plainRequest(message: unknown): boolean {
  const m = message as Record<string, unknown>;
  if (typeof m.method !== 'string') return false;
  for (const key in m) if (!REQUEST_MEMBERS.has(key)) return false;
  if (m.params === undefined) return !('params' in m);
  if (!isPlainObject(m.params)) return false;
  const meta = m.params._meta;
  if (meta === undefined) return !('_meta' in m.params);
  if (!isPlainObject(meta)) return false;
  if (RELATED_TASK in meta) return false;
  if (!('progressToken' in meta)) return true;
  const token = meta.progressToken;
  return typeof token === 'string' || (typeof token === 'number' && Number.isInteger(token));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
