/** Stable failure codes: agents and logs can branch on them. */
export type FailureCode =
  | 'invalid_input'
  | 'not_configured'
  | 'upstream_error'
  | 'http_error'
  | 'timeout'
  | 'connection_failed'
  | 'malformed_response'
  | 'unexpected_response'
  | 'cancelled'
  | 'not_enabled'
  | 'not_confirmed'
  | 'busy'
  | 'shutting_down'
  | 'result_too_large';

/**
 * Whether a request reached the upstream: `no` when it provably never left (the connection was never made),
 * `yes` when an answer came, `maybe` when the connection broke or the deadline passed after it was sent.
 */
export type Delivery = 'no' | 'maybe' | 'yes';

export interface FailureDetails {
  retryable?: boolean;
  /** Set for failures of the wire: whether the request got there. */
  delivery?: Delivery;
  httpStatus?: number;
  /** The upstream's own error code (gateway errorCode, N2MT.., status.code). */
  upstreamCode?: string;
  /** Milliseconds the upstream asked us to wait (Retry-After). */
  retryAfterMs?: number;
  /** The answer is a documented failure (a failure code the spec lists): the upstream refused the request. */
  refused?: boolean;
}

/**
 * The one error type of a call, from its arguments to the upstream's answer: the pipeline, the MCP surface and the
 * platform client all throw it. Its message is written for the agent that made the call.
 */
export class CallFailure extends Error {
  override name = 'CallFailure';
  readonly retryable: boolean;
  readonly delivery?: Delivery;
  readonly httpStatus?: number;
  readonly upstreamCode?: string;
  readonly retryAfterMs?: number;
  readonly refused: boolean;

  constructor(
    readonly code: FailureCode,
    message: string,
    details: FailureDetails = {},
  ) {
    super(message);
    this.retryable = details.retryable ?? false;
    this.delivery = details.delivery ?? (details.httpStatus === undefined ? undefined : 'yes');
    this.httpStatus = details.httpStatus;
    this.upstreamCode = details.upstreamCode;
    this.retryAfterMs = details.retryAfterMs;
    this.refused = details.refused ?? false;
  }

  /** The same failure with more said about it. */
  withMessage(message: string): CallFailure {
    return new CallFailure(this.code, message, this);
  }

  /** Any error as a CallFailure: a bug of ours still becomes a tool error, never a crash. */
  static from(error: unknown): CallFailure {
    return error instanceof CallFailure
      ? error
      : new CallFailure('unexpected_response', `internal error: ${(error as Error)?.message ?? String(error)}`);
  }
}

/**
 * The one way a failure says its request never left, the last sentence of its message: an agent that reads it knows
 * the call can be made again without changing anything twice.
 */
export const NOTHING_SENT = 'Nothing was sent.';

/** A message that ends by saying nothing was sent. */
export const nothingSent = (message: string): string => `${message.replace(/[.\s]*$/, '')}. ${NOTHING_SENT}`;

/** The refusal of arguments: every line names a field and its rule, and the words say that nothing left. */
export function invalidArguments(lines: readonly string[]): CallFailure {
  return new CallFailure('invalid_input', `${nothingSent('invalid arguments')}\n- ${lines.join('\n- ')}`);
}

/** The reason of the abort signal of a call the server stops at shutdown: not the client's cancellation. */
export class ServerStopping extends Error {
  override name = 'ServerStopping';
}

/** The failure of a call whose signal was aborted: by the client, or by the server shutting down. */
export function abortedFailure(signal: AbortSignal, delivery: Delivery): CallFailure {
  return signal.reason instanceof ServerStopping
    ? new CallFailure('shutting_down', 'the server shut down before the call ended', { delivery })
    : new CallFailure('cancelled', 'the call was cancelled by the client', { delivery });
}
