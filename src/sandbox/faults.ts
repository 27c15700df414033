/**
 * Faults on demand, for tests: a slow, failing, resetting or garbled upstream on one route or all of them.
 * Only test code holding the Sandbox object can set them; nothing in a request can.
 */

export interface Fault {
  /** Wait this long before answering (alone: then answer normally). */
  latencyMs?: number;
  /** Answer with this status instead of running the handler (default 429 with retryAfterSeconds, else 500). */
  status?: number;
  /** Body of the injected answer (default: the gateway error body for the status). */
  body?: string;
  contentType?: string;
  /** Sets Retry-After; implies status 429 unless status is given. */
  retryAfterSeconds?: number;
  /** Destroy the connection without answering. */
  reset?: boolean;
  /** Answer 200 (or `status`) with a truncated JSON body. */
  malformedJson?: boolean;
  /** Apply only to the next N matching requests, then remove itself. */
  times?: number;
}

export interface FaultController {
  /** `selector` is '*' (every request) or 'METHOD /pattern' of a route, e.g. 'GET /api/v1/products'. */
  set(selector: string, fault: Fault): void;
  /** Removes one selector's fault, or all of them. */
  clear(selector?: string): void;
}

/** The server's side: the fault for a request, if any, consuming one of its `times`. */
export interface FaultSource {
  take(routeKey: string | undefined): Fault | undefined;
}

const ANY_ROUTE = '*';

export function createFaults(routeKeys: readonly string[]): { controller: FaultController; source: FaultSource } {
  const known = new Set(routeKeys);
  const active = new Map<string, { fault: Fault; remaining: number }>();

  const normalise = (selector: string): string => {
    const trimmed = selector.trim();
    if (trimmed === ANY_ROUTE) return ANY_ROUTE;
    const [method = '', pattern = '', ...extra] = trimmed.split(/\s+/);
    const key = `${method.toUpperCase()} ${pattern}`;
    // A typo in a test would otherwise set a fault that never fires and the test would pass for the wrong reason.
    if (extra.length > 0 || !known.has(key)) throw new Error(`unknown sandbox route selector: ${selector}`);
    return key;
  };

  const controller: FaultController = {
    set(selector, fault) {
      validateFault(fault);
      active.set(normalise(selector), { fault: { ...fault }, remaining: fault.times ?? Infinity });
    },
    clear(selector) {
      if (selector === undefined) active.clear();
      else active.delete(normalise(selector));
    },
  };

  const source: FaultSource = {
    take(routeKey) {
      const key = routeKey !== undefined && active.has(routeKey) ? routeKey : ANY_ROUTE;
      const entry = active.get(key);
      if (!entry) return undefined;
      entry.remaining -= 1;
      if (entry.remaining <= 0) active.delete(key);
      return entry.fault;
    },
  };

  return { controller, source };
}

function validateFault(fault: Fault): void {
  const nonNegative = (n: number | undefined) => n === undefined || (Number.isFinite(n) && n >= 0);
  if (!nonNegative(fault.latencyMs)) throw new Error('fault.latencyMs must be a non-negative number');
  if (!nonNegative(fault.retryAfterSeconds)) throw new Error('fault.retryAfterSeconds must be a non-negative number');
  if (fault.status !== undefined && !(Number.isInteger(fault.status) && fault.status >= 100 && fault.status <= 599))
    throw new Error('fault.status must be an integer 100-599');
  if (fault.times !== undefined && !(Number.isInteger(fault.times) && fault.times >= 1))
    throw new Error('fault.times must be a positive integer');
}

/** Whether the fault replaces the answer (as opposed to only delaying it). */
export function answersInstead(fault: Fault): boolean {
  return (
    fault.status !== undefined ||
    fault.body !== undefined ||
    fault.retryAfterSeconds !== undefined ||
    fault.reset === true ||
    fault.malformedJson === true
  );
}
