import type { Delivery } from '../upstream/failure.js';

/** The moment a call must end, and the setting that says so (named in a timeout's message). */
export interface Deadline {
  at: number;
  setting: string;
}

/** The setting every call's deadline comes from unless a longer flow sets its own (the workflow's). */
export const CALL_TIMEOUT_SETTING = 'SVC_TIMEOUT_MS';

/**
 * The one record of a call: made when it starts, filled in by the stages (the attempts count what went on the wire),
 * read once at its end for the log line. A workflow's steps add to the record of their call.
 */
export interface CallRecord {
  readonly tool: string;
  /** Epoch ms. */
  readonly started: number;
  attempts: number;
  /** Whether the last attempt reached the upstream ('no' before anything was sent). */
  delivery: Delivery;
  /** HTTP status of the last answer, when one came. */
  status?: number;
}

export const newRecord = (tool: string, started: number): CallRecord => ({
  tool,
  started,
  attempts: 0,
  delivery: 'no',
});
