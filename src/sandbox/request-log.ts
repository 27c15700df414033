import type { IncomingHttpHeaders } from 'node:http';

/** What the sandbox received, for tests that check what the server sent (e.g. the exact signed URI). */
export interface RecordedRequest {
  method: string;
  /** Path and query exactly as received. */
  rawUri: string;
  /** Header names lower-cased by node. Holds credentials: for assertions in tests, never for logs. */
  headers: IncomingHttpHeaders;
  /** Raw body text ('' when none, or when the body was over the size limit). */
  body: string;
}

export interface RequestLog {
  /**
   * Oldest first; at most the latest LIMIT requests, so a long-running --sandbox server does not grow without bound.
   */
  readonly entries: readonly RecordedRequest[];
  last(): RecordedRequest | undefined;
  clear(): void;
}

const LIMIT = 1000;

export function createRequestLog(): RequestLog & { add(entry: RecordedRequest): void } {
  const entries: RecordedRequest[] = [];
  return {
    entries,
    last: () => entries.at(-1),
    clear: () => {
      entries.length = 0;
    },
    add(entry) {
      entries.push(entry);
      if (entries.length > LIMIT) entries.splice(0, entries.length - LIMIT);
    },
  };
}
