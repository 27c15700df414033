import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { serveStdio as serveBothEras } from '@modelcontextprotocol/server/stdio';
import type { Calls } from '../call/admission.js';
import type { ServerFactory } from '../server.js';
import { serialised, toLegacyWire } from '../outgoing-wire.js';
import { finishInFlight, until } from './shutdown.js';
import { BatchAnswers } from './stdio-batches.js';
import { StdioEra } from './stdio-era.js';
import { LineFilter, STDIO_MAX_LINE_BYTES, afterDrain, type RequestId } from './stdio-lines.js';

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

/**
 * Serves one connection over the given streams (stdin/stdout from the CLI), in the era its client opens with (the SDK's
 * serveStdio decides: a 2025 initialize, or 2026-07-28 requests that carry their version), until stdin ends, a signal
 * comes or stdout is closed, then shuts down: requests in flight get `graceMs` to be answered (a client that closed
 * stdin may still read stdout), tool calls still running are then stopped and answer `[shutting_down]`, and the session
 * closes. Resolves when it is over, so that the caller can release the sandbox and the connection pool and exit.
 */
export async function serveStdio(
  create: ServerFactory,
  input: Readable,
  output: Writable,
  runtime: StdioRuntime,
): Promise<void> {
  const log = (entry: object) => runtime.log(JSON.stringify(entry));
  const maxLineBytes = runtime.maxLineBytes ?? STDIO_MAX_LINE_BYTES;
  const era = new StdioEra();
  const filter = new LineFilter({ output, maxLineBytes, log, protocolVersion: () => era.negotiated });
  const transport = new StdioTransport(filter, output, era, log);

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
  type Ending = 'eof' | 'signal' | 'output';
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
    runtime.onSignal((signal) => {
      filter.refuseRequests();
      runtime.log(
        `svc-platform-mcp: ${signal} received: finishing in-flight requests (up to ${runtime.graceMs} ms), then exiting; ` +
          'the same signal again exits at once',
      );
      resolve('signal');
    });
  });

  const connection = serveBothEras(() => create(), {
    transport,
    onerror: (error) => log({ event: 'stdio_error', message: error.message }),
  });
  input.pipe(filter);
  const why = await ending;
  if (why === 'eof' && transport.unanswered > 0) {
    runtime.log(
      `svc-platform-mcp: stdin closed: answering ${transport.unanswered} request(s) in flight (up to ${runtime.graceMs} ms), then exiting`,
    );
  }
  await finish(why);
  input.unpipe(filter);
  await connection.close();

  async function finish(why: Ending): Promise<void> {
    const gone = outputGone.signal;
    // Every line received is handled first: after EOF up to the end; after a signal, new requests are refused
    // (stdin is still read, so that every request the client wrote gets an answer).
    const received = () =>
      why === 'eof' ? inputDone : why === 'output' || (filter.idle && input.readableLength === 0);
    await finishInFlight({
      answered: () => transport.unanswered === 0 && received(),
      count: () => transport.unanswered,
      graceMs: runtime.graceMs,
      calls: runtime.calls,
      stoppedMs: STOPPED_ANSWER_MS,
      gone,
      log,
    });
    if (!gone.aborted) await until(() => output.writableLength === 0, FLUSH_MS, gone);
  }
}

/**
 * The one stdio transport: messages come from the line filter already parsed, answers go to stdout a line each (the
 * answers to a batch together). It keeps the connection in the era it opened with (StdioEra), and counts the requests
 * received and not yet answered (a request the client cancels is answered by no one): shutdown waits for that count,
 * which covers every request, not only tool calls.
 */
class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #input: LineFilter;
  readonly #output: Writable;
  readonly #open = new Map<RequestId, number>();
  readonly #era: StdioEra;
  readonly #batches = new BatchAnswers();
  readonly #log: (entry: object) => void;
  #count = 0;
  #ended = false;

  constructor(input: LineFilter, output: Writable, era: StdioEra, log: (entry: object) => void) {
    this.#input = input;
    this.#output = output;
    this.#era = era;
    this.#log = log;
  }

  /** Requests received and neither answered nor cancelled. */
  get unanswered(): number {
    return this.#count;
  }

  async start(): Promise<void> {
    this.#input.on('data', (item: JSONRPCMessage | JSONRPCMessage[]) => {
      if (!Array.isArray(item)) return this.#receive(item);
      this.#batches.open(item.flatMap((m) => requestIdOf(m) ?? []));
      for (const message of item) this.#receive(message);
    });
  }

  #receive(message: JSONRPCMessage): void {
    const m = message as { id?: RequestId; method?: string; params?: { requestId?: RequestId } };
    const id = requestIdOf(message);
    if (id !== undefined) this.#opened(id);
    const verdict = this.#era.admit(message);
    if (verdict.kind === 'drop') return this.#log({ event: 'stdio_dropped', method: m.method, why: verdict.why });
    if (verdict.kind === 'answer') return void this.send({ jsonrpc: '2.0', id: verdict.id, error: verdict.error });
    if (verdict.kind === 'result') return void this.send({ jsonrpc: '2.0', id: verdict.id, result: {} });
    if (m.method === 'notifications/cancelled' && m.params?.requestId !== undefined) {
      this.#closed(m.params.requestId);
      const answers = this.#batches.cancelled(m.params.requestId);
      if (answers) this.#write(answers);
    }
    this.onmessage?.(message);
  }

  async close(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    this.onclose?.();
  }

  /** One whole line per write, so that it never interleaves with the filter's own answers. */
  async send(message: JSONRPCMessage): Promise<void> {
    const output = this.#output;
    if (output.destroyed || output.writableEnded) return;
    const m = message as { id?: RequestId; method?: string };
    this.#era.answered(message);
    if (m.method === undefined && m.id !== undefined) this.#closed(m.id);
    const batch = this.#batches.answer(message);
    if (batch.kind === 'held') return;
    if (!this.#write(batch.kind === 'complete' ? batch.answers : message)) {
      // Back-pressure: the next message waits until stdout drains (or is gone).
      await new Promise<void>((resolve) => afterDrain(output, resolve));
    }
  }

  /** One line: a message or a batch's answers, in the 2025 spelling on a 2025 connection. False when stdout is full. */
  #write(value: JSONRPCMessage | JSONRPCMessage[]): boolean {
    const output = this.#output;
    if (output.destroyed || output.writableEnded) return true;
    // The egress filter's text of a message when the era leaves it as it is: one serialisation per message.
    const line = (message: JSONRPCMessage) => {
      const spelled = this.#era.era === 'legacy' ? toLegacyWire(message) : message;
      return spelled === message ? serialised(message) : JSON.stringify(spelled);
    };
    return output.write(`${Array.isArray(value) ? `[${value.map(line).join(',')}]` : line(value)}\n`);
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

/** The id of a request; undefined for notifications and responses. */
function requestIdOf(message: JSONRPCMessage): RequestId | undefined {
  const m = message as { id?: RequestId; method?: string };
  return m.method !== undefined && m.id !== undefined ? m.id : undefined;
}
