import { CallFailure } from '../failures.js';

/**
 * The deadline passed before a request could leave (waiting for a place, between attempts, or while the connection
 * pool was made): the request never left. `before` says before what ("the request could be sent").
 */
export function lateFailure(timeoutLabel: string, before: string): CallFailure {
  return new CallFailure('timeout', `the call's time ran out (${timeoutLabel}) before ${before}`, { delivery: 'no' });
}

/** The gateway's error codes live with the spec's other tables, in the catalogue. */
export { GATEWAY_ERROR_CODES, RETRYABLE_GATEWAY_CODES } from '../catalogue/gateway-errors.js';
export const RETRYABLE_HTTP_STATUSES = new Set([429, 502, 503, 504]);
