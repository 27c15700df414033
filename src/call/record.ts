import type { WireRecord } from '../upstream/index.js';

/**
 * The one record of a call: made when it starts, filled in by the stages (the attempts count what went on the wire),
 * read once at its end for the log line. A workflow's steps add to the record of their call.
 */
export interface CallRecord extends WireRecord {
  readonly tool: string;
  /** Epoch ms. */
  readonly started: number;
}

export const newRecord = (tool: string, started: number): CallRecord => ({
  tool,
  started,
  attempts: 0,
  delivery: 'no',
});
