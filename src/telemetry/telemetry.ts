import type { Transport } from '@modelcontextprotocol/server';

/**
 * What the server tells its telemetry: the server's own words, with no OpenTelemetry type in them. With telemetry off
 * the server holds none (every hook is an optional call on `undefined`), and no OpenTelemetry code is loaded; when the
 * OTEL_* variables ask for it, main.ts loads the one implementation (./open-telemetry.ts) with a dynamic import.
 */
export interface Telemetry {
  /**
   * A server's transport with a SERVER span per request it receives, ended by the response that answers it. `pipe`
   * for stdio, `tcp` for HTTP. Only the names the server knows (`known`) are recorded as such.
   */
  traced(transport: Transport, network: NetworkTransport, known: KnownNames): Transport;
  /** The places of the process: calls running and waiting, read when metrics are collected. */
  observeCalls(calls: { readonly running: number; readonly waiting: number }): void;
  /** The current request's call waits for a place among the calls of the process. */
  admission(): StageSpan;
  /** The current request's destructive call waits for its user's confirmation, by this channel. */
  confirmation(channel: string): ConfirmationSpan;
  /** A CLIENT span for one upstream attempt, a child of the current request's span. */
  attempt(request: AttemptRequest): AttemptSpan;
  /**
   * How the current request's tool call ended: `ok`, `input_required` or a failure code such as `busy`; `profile`:
   * the credential profile whose keys the call used.
   */
  callEnded(outcome: string, profile?: string): void;
  /** Exports what is buffered and stops; settles within `withinMs` whether the collector answers or not. */
  shutdown(withinMs: number): Promise<void>;
}

export type NetworkTransport = 'pipe' | 'tcp';

/** The names a server serves: what a request may name that telemetry records as it is. */
export interface KnownNames {
  tool(name: string): boolean;
  prompt(name: string): boolean;
  resource(uri: string): boolean;
}

export interface StageSpan {
  /** Idempotent; `failure` is the code of a call that ended there (`busy`, `timeout`, `cancelled`). */
  end(failure?: string): void;
}

export interface ConfirmationSpan {
  /**
   * Idempotent. `asked`: the user was asked in this request (a form, an input request, or the model told to confirm);
   * `answer`: the answer this request brought or got, if any.
   */
  end(result: { asked: boolean; answer?: 'confirmed' | 'refused' }): void;
}

/** One attempt as the attempts stage knows it: nothing of its arguments but what the URL carries. */
export interface AttemptRequest {
  method: string;
  /** The full URL sent (the query is never recorded). */
  url: string;
  /** The operation's path with its `{placeholders}`: path parameters are argument values and are not recorded. */
  template: string;
  /** 0 for the first attempt, then 1, 2: `http.request.resend_count`. */
  resendCount: number;
}

export interface AttemptSpan {
  /** Idempotent: the first end counts (an answer's status, or the failure code of an attempt that got none). */
  end(status?: number, failure?: string): void;
}
