import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { Calls } from '../mcp/calls.js';
import { LineFilter, STDIO_MAX_LINE_BYTES, type RequestId } from './stdio-lines.js';

export interface StdioRuntime {
  log(line: string): void;
  /** Registers the handler of SIGINT/SIGTERM (the CLI owns the process; a second signal ends it at once). */
  onSignal(handler: (signal: string) => void): void;
  /** How long in-flight requests may take to finish once stdin ends or a signal comes (SVC_MCP_SHUTDOWN_GRACE_MS). */
  graceMs: number;
  /** The tool calls of the process: those still running after the grace period are stopped, and answer so. */
  calls?: Calls;
  /** The longest line read; STDIO_MAX_LINE_BYTES by default. */
  maxLineBytes?: number;
}

/** How long calls stopped at the end of the grace period have to write their `[shutting_down]` answers. */
const STOPPED_ANSWER_MS = 2_000;
/** How long the last answers have to leave the process once written (stdout is a pipe: writes are asynchronous). */
const FLUSH_MS = 2_000;
const POLL_MS = 10;

/**
 * Serves one session over the given streams (stdin/stdout from the CLI) until stdin ends, a signal comes or stdout
 * is closed, then shuts down: requests in flight get `graceMs` to be answered (a client that closed stdin may still
 * read stdout), tool calls still running are then stopped and answer `[shutting_down]`, and the session closes.
 * Resolves when it is over, so that the caller can release the sandbox and the connection pool and exit.
 */
export async function serveStdio(server: Server, input: Readable, output: Writable, runtime: StdioRuntime): Promise<void> {
  const log = (entry: object) => runtime.log(JSON.stringify(entry));
  const maxLineBytes = runtime.maxLineBytes ?? STDIO_MAX_LINE_BYTES;
  const filter = new LineFilter({ output, maxLineBytes, log });
  // The filter passes one line of at most maxLineBytes per chunk: the SDK's buffer never holds more.
  const transport = new AnsweredRequests(new StdioServerTransport(filter, output, { maxBufferSize: maxLineBytes + 1 }));

  // A client that closed its end of stdout (EPIPE): no one is left to answer; the failed write must not crash.
  const outputGone = new AbortController();
  output.on('error', (error: NodeJS.ErrnoException) => {
    if (outputGone.signal.aborted) return;
    log({ event: 'stdout_closed', error: error.code ?? error.message, inFlight: transport.unanswered });
    outputGone.abort();
  });
  output.once('close', () => outputGone.abort());

  let inputDone = false;
  filter.once('finish', () => (inputDone = true));
  type Ending = 'eof' | 'signal' | 'output' | 'closed';
  const ending = new Promise<Ending>((resolve) => {
    input.once('end', () => resolve('eof'));
    // A broken or closed stdin ends the input like EOF (pipe() ends the filter only on 'end').
    const broken = () => {
      if (!filter.writableEnded) filter.end();
      resolve('eof');
    };
    input.on('error', broken);
    input.once('close', broken);
    outputGone.signal.addEventListener('abort', () => resolve('output'), { once: true });
    server.onclose = () => resolve('closed');
    runtime.onSignal((signal) => {
      filter.refuseRequests();
      runtime.log(
        `svc-platform-mcp: ${signal} received: finishing in-flight requests (up to ${runtime.graceMs} ms), then exiting; ` +
          'the same signal again exits at once',
      );
      resolve('signal');
    });
  });

  await server.connect(transport);
  input.pipe(filter);
  const why = await ending;
  if (why !== 'closed') {
    if (why === 'eof' && transport.unanswered > 0) {
      runtime.log(`svc-platform-mcp: stdin closed: answering ${transport.unanswered} request(s) in flight (up to ${runtime.graceMs} ms), then exiting`);
    }
    await finish(why);
  }
  input.unpipe(filter);
  await server.close();

  async function finish(why: Exclude<Ending, 'closed'>): Promise<void> {
    const gone = outputGone.signal;
    // Every line received is handled first: after EOF up to the end; after a signal, new requests are refused
    // (stdin is still read, so that every request the client wrote gets an answer).
    const received = () => (why === 'eof' ? inputDone : why === 'output' || (filter.idle && input.readableLength === 0));
    const answered = () => transport.unanswered === 0 && received();
    if (why !== 'output' && !(await until(answered, runtime.graceMs, gone)) && !gone.aborted) {
      log({ event: 'shutdown_grace_expired', graceMs: runtime.graceMs, cutOff: transport.unanswered });
    }
    if (!answered() || gone.aborted) {
      runtime.calls?.stop();
      // With stdout gone the answers cannot be written: then waiting for the calls to end is enough.
      const settled = () => (gone.aborted ? (runtime.calls?.inFlight ?? 0) === 0 : transport.unanswered === 0);
      await until(settled, STOPPED_ANSWER_MS);
    }
    if (!gone.aborted) await until(() => output.writableLength === 0, FLUSH_MS, gone);
  }
}

/** Resolves true once the condition holds, false when `ms` pass or `cancel` is aborted first. */
async function until(condition: () => boolean, ms: number, cancel?: AbortSignal): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    const left = deadline - Date.now();
    if (left <= 0 || cancel?.aborted) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)));
  }
  return true;
}

/**
 * The SDK's transport, counting the requests received and not yet answered (a request the client cancels is answered
 * by no one): shutdown waits for that count, which covers every request, not only tool calls.
 */
class AnsweredRequests implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly #inner: StdioServerTransport;
  readonly #open = new Map<RequestId, number>();
  #count = 0;

  constructor(inner: StdioServerTransport) {
    this.#inner = inner;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message: JSONRPCMessage) => {
      const m = message as { id?: RequestId; method?: string; params?: { requestId?: RequestId } };
      if (m.method !== undefined && m.id !== undefined) this.#opened(m.id);
      else if (m.method === 'notifications/cancelled' && m.params?.requestId !== undefined) this.#closed(m.params.requestId);
      this.onmessage?.(message);
    };
  }

  /** Requests received and neither answered nor cancelled. */
  get unanswered(): number {
    return this.#count;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** The options only matter to transports with several streams; stdio has one. */
  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    await this.#inner.send(message);
    const m = message as { id?: RequestId; method?: string };
    if (m.method === undefined && m.id !== undefined) this.#closed(m.id);
  }

  #opened(id: RequestId): void {
    this.#open.set(id, (this.#open.get(id) ?? 0) + 1);
    this.#count += 1;
  }

  #closed(id: RequestId): void {
    const n = this.#open.get(id);
    if (n === undefined) return;
    if (n > 1) this.#open.set(id, n - 1);
    else this.#open.delete(id);
    this.#count -= 1;
  }
}
