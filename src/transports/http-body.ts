import type { IncomingMessage } from 'node:http';
import { readLimited } from '../util/read-body.js';
import { invalidMessage, prototypeKeyIn, tooDeep, unreadableMessage, type RpcError } from './jsonrpc-check.js';
import { RPC_ERROR } from '../jsonrpc-errors.js';

export type BodyResult =
  | { kind: 'json'; value: unknown }
  | { kind: 'too-large' }
  | { kind: 'invalid-json' }
  | { kind: 'aborted' }
  | { kind: 'timeout' };

/**
 * Reads a request body of at most `maxBytes` within `timeoutMs` and parses it as JSON. A declared Content-Length
 * over the limit is refused before reading; otherwise reading stops as soon as the limit is passed (the rest is
 * drained so that the connection can answer). A body still arriving at the deadline (an endless chunked one, a
 * client trickling bytes) is given up on: `timeout`. Never throws.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return { kind: 'too-large' };
  }
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<{ kind: 'timeout' }>(
    (resolve) => (timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs)),
  );
  const body = await Promise.race([readLimited(req, { maxBytes, overflow: 'drain' }), deadline]);
  clearTimeout(timer);
  if (body.kind !== 'complete') return body;
  try {
    return { kind: 'json', value: JSON.parse(body.bytes.toString('utf8')) as unknown };
  } catch {
    return { kind: 'invalid-json' };
  }
}

/** Media type `application/json` (any parameters), as the transport requires for POST. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** The first protocol version without JSON-RPC batches; a client that sends no Mcp-Protocol-Version is older. */
const NO_BATCHES_FROM = '2025-06-18';
const VERSION_WITHOUT_HEADER = '2025-03-26';

/**
 * The check of a POST body before the SDK sees it (which would answer a valid JSON body it cannot read with a parse
 * error, and an empty batch with nothing): every message must pass `invalidMessage` and be readable. A batch is refused
 * under 2025-06-18 and later, which removed batches; under earlier versions, which had them, each of its messages is
 * checked and one invalid message refuses the whole batch (nothing of it is handled).
 */
export function invalidBody(body: unknown, protocolVersion: string | undefined): RpcError | undefined {
  const check = (message: unknown) => invalidMessage(message) ?? unreadableMessage(message) ?? prototypeKeyIn(message);
  const deep = tooDeep(body);
  if (deep) return deep;
  if (!Array.isArray(body) || (protocolVersion ?? VERSION_WITHOUT_HEADER) >= NO_BATCHES_FROM) return check(body);
  if (body.length === 0) return { code: RPC_ERROR.InvalidRequest, message: 'Invalid Request: an empty batch' };
  for (const [index, message] of body.entries()) {
    const error = check(message);
    if (error) return { ...error, message: `${error.message} (message ${index + 1} of the batch)` };
  }
  return undefined;
}
