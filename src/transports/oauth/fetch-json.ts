import type { Dispatcher } from 'undici';
import { readLimited } from '../../util/read-body.js';

/** Metadata and key sets are small; anything larger is not one. */
const MAX_DOCUMENT_BYTES = 256 * 1024;

/**
 * Gets a JSON document from the authorization server; stops when `signal` aborts (the overall deadline). Throws
 * NotADocument when the server answers but not with one (a discovery goes on to the next location), anything else
 * when it cannot be reached or runs out of time.
 */
export type FetchJson = (url: string, signal: AbortSignal) => Promise<object>;

/** The server answered, but not with a JSON object at this URL: another status, a redirect, something else. */
export class NotADocument extends Error {
  override name = 'NotADocument';
}

/** The overall deadline of a fetch to the authorization server passed before its answer was whole. */
export class DeadlinePassed extends Error {
  override name = 'DeadlinePassed';
}

/**
 * GETs a JSON document through the process's undici dispatcher (its proxy settings apply). Redirects are not
 * followed: a metadata document or key set is where the issuer says it is.
 */
export function fetchJsonWith(dispatcher: () => Promise<Dispatcher>): FetchJson {
  return async (text, signal) => {
    try {
      return await fetchJson(await dispatcher(), new URL(text), signal);
    } catch (error) {
      if (signal.aborted) throw new DeadlinePassed(`${text} did not answer in time`);
      throw error;
    }
  };
}

async function fetchJson(dispatcher: Dispatcher, url: URL, signal: AbortSignal): Promise<object> {
  const answer = await dispatcher.request({
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    method: 'GET',
    headers: { accept: 'application/json' },
    signal,
  });
  if (answer.statusCode !== 200) {
    // Nothing of it is read: the connection goes (its error, an abort, has nobody to tell).
    answer.body.on('error', () => {}).destroy();
    const redirect = answer.statusCode >= 300 && answer.statusCode < 400;
    throw new NotADocument(`HTTP ${answer.statusCode}${redirect ? ' (a redirect: not followed)' : ''}`);
  }
  const body = await readLimited(answer.body, { maxBytes: MAX_DOCUMENT_BYTES, overflow: 'destroy' });
  if (signal.aborted) throw new DeadlinePassed(`${url.href} did not answer in time`);
  if (body.kind === 'too-large') throw new NotADocument('larger than a metadata document or key set is');
  if (body.kind !== 'complete') throw new Error('the answer was cut off');
  let value: unknown;
  try {
    value = JSON.parse(body.bytes.toString('utf8'));
  } catch {
    throw new NotADocument('not JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new NotADocument('not a JSON object');
  return value;
}
