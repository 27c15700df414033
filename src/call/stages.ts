/**
 * The stages of a call, in the order they run: the arguments checked; a dry run shows the request and ends; a
 * destructive call asks its user; the call waits for its place; the platform client exchanges the request for an
 * answer (sign, send, redact, interpret, retry); the answer is rendered within the result limit; one log line.
 * `pipeline.ts` runs them by this list, the workflow and the tests reuse its stages, and telemetry attaches to them by
 * name (`traced-stages.ts`).
 */
export const CALL_STAGES = ['arguments', 'dry run', 'confirmation', 'admission', 'exchange', 'render', 'log'] as const;

export type CallStage = (typeof CALL_STAGES)[number];
