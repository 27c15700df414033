import { USER_AGENT } from '../version.js';
import { authHeaders } from './auth.js';
import type { OutgoingRequest } from './http.js';
import type { PreparedRequest } from './request.js';

/** What signing reads from the world: the clock and a fresh id (text-generation requests carry one). */
export interface SigningClock {
  /** Epoch milliseconds. */
  now(): number;
  requestId(): string;
}

/** The request of one attempt, signed now: a fresh timestamp and request id every time. */
export function signRequest({ operation, built, credential }: PreparedRequest, clock: SigningClock): OutgoingRequest {
  const headers = {
    ...authHeaders(credential, {
      method: built.method,
      uri: built.uri,
      now: clock.now(),
      requestId: clock.requestId(),
    }),
    accept: operation.accept,
    'user-agent': USER_AGENT,
    ...(built.body !== undefined ? { 'content-type': 'application/json' } : {}),
  };
  return { method: built.method, url: built.url, headers, body: built.body };
}
