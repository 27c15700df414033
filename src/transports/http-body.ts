import type { IncomingMessage } from 'node:http';
import { readLimited } from '../util/read-body.js';

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
