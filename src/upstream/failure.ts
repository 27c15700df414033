import { CallFailure } from '../failures.js';

/**
 * The deadline passed before a request could leave (waiting for a place, between attempts, or while the connection
 * pool was made): the request never left. `before` says before what ("the request could be sent").
 */
export function lateFailure(timeoutLabel: string, before: string): CallFailure {
  return new CallFailure('timeout', `the call's time ran out (${timeoutLabel}) before ${before}`, { delivery: 'no' });
}
