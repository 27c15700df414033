import { specTypeSchemas } from '@modelcontextprotocol/server';
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
    return invalid('batches are not supported (MCP 2025-06-18 removed them): send one message per line or request');
  if (typeof message !== 'object' || message === null) return invalid('a message must be a JSON object');
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return invalid('"jsonrpc" must be "2.0"');
  const isResponse = 'result' in m || 'error' in m;
  if (!('method' in m) && !isResponse) return invalid('a message needs a "method" (or a "result" or "error")');
  if ('method' in m && typeof m.method !== 'string') return invalid('"method" must be a string');
  if ('id' in m && !validId(m.id)) return invalid('"id" must be a string or an integer (MCP allows no null id)');
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
