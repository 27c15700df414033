import type { Dispatcher } from 'undici';
import { readLimited } from '../../util/read-body.js';
import type { FetchJson } from './discovery.js';

/** Metadata and key sets are small; anything larger is not one. */
const MAX_DOCUMENT_BYTES = 256 * 1024;
const TIMEOUT_MS = 10_000;

/**
 * GETs a JSON document from the authorization server through the process's undici dispatcher (its proxy settings
 * apply). A 404 or other 4xx is "not there" (undefined); anything else that is not a JSON object throws.
 */
export function fetchJsonWith(dispatcher: () => Promise<Dispatcher>): FetchJson {
  return async (text) => {
    const url = new URL(text);
    const answer = await (
      await dispatcher()
    ).request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { accept: 'application/json' },
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    if (answer.statusCode >= 400 && answer.statusCode < 500) {
      answer.body.resume();
      return undefined;
    }
    const body = await readLimited(answer.body, { maxBytes: MAX_DOCUMENT_BYTES, overflow: 'destroy' });
    if (answer.statusCode !== 200) throw new Error(`${url.href} answered HTTP ${answer.statusCode}`);
    if (body.kind !== 'complete') throw new Error(`${url.href}: the document is too large or was cut off`);
    let value: unknown;
    try {
      value = JSON.parse(body.bytes.toString('utf8'));
    } catch {
      throw new Error(`${url.href} is not JSON`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw new Error(`${url.href} is not a JSON object`);
    return value;
  };
}
