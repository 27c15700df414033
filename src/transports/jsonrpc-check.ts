/**
 * What JSON-RPC 2.0 and MCP require of one incoming message, checked before the SDK sees it: the SDK drops a
 * message it cannot read without a word, and a client waiting for an answer would wait forever.
 */
export interface RpcError {
  code: number;
  message: string;
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

/** The error answer of a message that cannot be answered with its own id (JSON-RPC: id null). */
export function errorAnswer(error: RpcError): string {
  return JSON.stringify({ jsonrpc: '2.0', id: null, error });
}

/** Undefined when the message may go on; otherwise the error to answer with (id null). */
export function invalidMessage(message: unknown): RpcError | undefined {
  const invalid = (why: string): RpcError => ({ code: INVALID_REQUEST, message: `Invalid Request: ${why}` });
  if (Array.isArray(message)) return invalid('batches are not supported (MCP 2025-06-18 removed them): send one message per line or request');
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
