import type { IncomingMessage } from 'node:http';
import { readLimited } from '../util/read-body.js';

export type BodyResult =
  | { kind: 'json'; value: unknown }
  | { kind: 'too-large' }
  | { kind: 'invalid-json' }
  | { kind: 'aborted' };

/**
 * Reads a request body of at most `maxBytes` and parses it as JSON. A declared Content-Length over the
 * limit is refused before reading; otherwise reading stops as soon as the limit is passed (the rest is
 * drained so that the connection can answer). Never throws.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    return { kind: 'too-large' };
  }
  const body = await readLimited(req, { maxBytes, overflow: 'drain' });
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
