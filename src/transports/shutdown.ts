import type { Calls } from '../call/admission.js';

export interface InFlight {
  /** Every request received has its answer (stdio: also every line read is handled). */
  answered(): boolean;
  /** Requests still unanswered, for the log. */
  count(): number;
  /** How long the requests in flight may take (SVC_MCP_SHUTDOWN_GRACE_MS). */
  graceMs: number;
  /** The tool calls of the process: those still running after the grace period are stopped and answer so. */
  calls?: Calls;
  /** How long the stopped calls have to write their `[shutting_down]` answers. */
  stoppedMs: number;
  /** Aborted when no answer can reach the client any more (stdio's closed stdout): then nothing is waited for. */
  gone?: AbortSignal;
  log(entry: object): void;
}

const POLL_MS = 10;

/**
 * The one shutdown of both transports, once they take no new work: requests in flight get the grace period to be
 * answered; the tool calls still running are then stopped, each answering that it was stopped and whether its
 * request was sent, and those answers get a moment to go out. With the client gone, the calls are stopped at once
 * and only their ending is waited for.
 */
export async function finishInFlight(work: InFlight): Promise<void> {
  const { gone, calls } = work;
  if (!gone?.aborted && !(await until(work.answered, work.graceMs, gone)) && !gone?.aborted) {
    work.log({
      event: 'shutdown_grace_expired',
      graceMs: work.graceMs,
      cutOff: work.count(),
      ...(calls ? { stopped: calls.inFlight } : {}),
    });
  }
  if (work.answered() && !gone?.aborted) return;
  calls?.stop();
  // With the client gone the answers cannot be written: then waiting for the calls to end is enough.
  await until(() => (gone?.aborted ? (calls?.inFlight ?? 0) === 0 : work.answered()), work.stoppedMs);
}

/** Resolves true once the condition holds, false when `ms` pass or `cancel` is aborted first. */
export async function until(condition: () => boolean, ms: number, cancel?: AbortSignal): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    const left = deadline - Date.now();
    if (left <= 0 || cancel?.aborted) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)));
  }
  return true;
}
