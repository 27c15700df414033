import { Transform, type TransformCallback, type Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import {
  batchesAllowed,
  errorAnswer,
  invalidBody,
  invalidMessage,
  prototypeKeyIn,
  tooDeep,
  unreadableMessage,
  type RpcError,
} from './jsonrpc-check.js';
import { RPC_ERROR } from '../jsonrpc-errors.js';

/**
 * The longest line (one message) read from stdin, newline excluded: the SDK's own read buffer is 10 MiB, and a
 * longer line used to end the server. Longer lines are discarded as they arrive (never held) and answered.
 */
export const STDIO_MAX_LINE_BYTES = 10 * 1024 * 1024;

/** A request id, as JSON-RPC and MCP allow it. */
export type RequestId = string | number;

/** One line of stdin, or what is left of a line that was too long to keep. */
export type LineEvent = { kind: 'line'; line: Buffer } | { kind: 'too_large'; bytes: number };

/**
 * Splits bytes into lines at `\n`, holding at most `maxLineBytes` of the line in progress: the rest of a longer line
 * is counted and dropped. Pull-based (`push` a chunk, then `next` until undefined), so that a caller can stop
 * between two lines of one chunk.
 */
export class LineSplitter {
  readonly #max: number;
  #parts: Buffer[] = [];
  #size = 0;
  /** Bytes of the current line seen so far once it is over the limit; undefined while it is within it. */
  #dropped: number | undefined;
  #chunk: Buffer | undefined;
  #at = 0;

  constructor(maxLineBytes: number = STDIO_MAX_LINE_BYTES) {
    this.#max = maxLineBytes;
  }

  /** Takes the next chunk; `next` must have returned undefined for the previous one. */
  push(chunk: Buffer): void {
    if (this.#chunk) throw new Error('LineSplitter: the previous chunk still has lines');
    if (chunk.length > 0) this.#chunk = chunk;
    this.#at = 0;
  }

  /** The next complete line of the pushed chunks, or undefined when they hold no more. */
  next(): LineEvent | undefined {
    while (this.#chunk) {
      const chunk = this.#chunk;
      const newline = chunk.indexOf(0x0a, this.#at);
      const end = newline === -1 ? chunk.length : newline;
      this.#take(chunk.subarray(this.#at, end));
      this.#at = end + 1;
      if (this.#at >= chunk.length) this.#chunk = undefined;
      if (newline !== -1) return this.#complete();
    }
    return undefined;
  }

  /** At the end of the input: the last line when it had no newline, undefined when nothing is left. */
  end(): LineEvent | undefined {
    if (this.#size === 0 && this.#dropped === undefined) return undefined;
    return this.#complete();
  }

  #take(piece: Buffer): void {
    if (this.#dropped !== undefined) {
      this.#dropped += piece.length;
    } else if (this.#size + piece.length > this.#max) {
      this.#dropped = this.#size + piece.length;
      this.#parts = [];
      this.#size = 0;
    } else if (piece.length > 0) {
      this.#parts.push(piece);
      this.#size += piece.length;
    }
  }

  #complete(): LineEvent {
    const event: LineEvent =
      this.#dropped !== undefined
        ? { kind: 'too_large', bytes: this.#dropped }
        : { kind: 'line', line: this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.#size) };
    this.#parts = [];
    this.#size = 0;
    this.#dropped = undefined;
    return event;
  }
}

/**
 * What to do with one line: nothing (blank), pass it on (with its id when it is a request), pass a batch on (on a
 * connection whose protocol version has batches), or answer it.
 */
export type LineVerdict =
  | { kind: 'blank' }
  | { kind: 'pass'; message: JSONRPCMessage; requestId?: RequestId }
  | { kind: 'batch'; messages: JSONRPCMessage[]; requestIds: RequestId[] }
  | { kind: 'answer'; reason: 'parse_error' | 'invalid_request'; answer: string };

/**
 * Checks one line as the SDK would read it, so that nothing it would drop without a word goes on: not JSON (parse
 * error), not a message MCP accepts (invalid request: batches, bad ids, no method...), or not of the shape the SDK
 * parses (e.g. `params` not an object). Answers carry id null unless the request's own id could be read. A batch is
 * read only when the connection's protocol version (`protocolVersion`, negotiated at initialize) still had batches.
 */
export function checkLine(line: Buffer, protocolVersion?: string): LineVerdict {
  const text = line.toString('utf8');
  if (text.trim() === '') return { kind: 'blank' };
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    const why = (error as Error).message;
    return {
      kind: 'answer',
      reason: 'parse_error',
      answer: errorAnswer({ code: RPC_ERROR.ParseError, message: `Parse error: ${why}` }),
    };
  }
  // Before a version is negotiated there are no batches (HTTP's default of 2025-03-26 is for a missing header).
  if (Array.isArray(message) && protocolVersion !== undefined && batchesAllowed(protocolVersion))
    return checkBatch(message, protocolVersion);
  const invalid = invalidMessage(message);
  if (invalid) return { kind: 'answer', reason: 'invalid_request', answer: errorAnswer(invalid) };
  const m = message as { id?: RequestId; method?: string };
  const requestId = m.method !== undefined && m.id !== undefined ? m.id : undefined;
  const unreadable = tooDeep(message) ?? unreadableMessage(message) ?? prototypeKeyIn(message);
  if (unreadable) {
    return {
      kind: 'answer',
      reason: 'invalid_request',
      answer: requestId === undefined ? errorAnswer(unreadable) : answerTo(requestId, unreadable),
    };
  }
  const pass = { kind: 'pass', message: message as JSONRPCMessage } as const;
  return requestId === undefined ? pass : { ...pass, requestId };
}

/** A batch, whole or not at all: one invalid message refuses it (id null), as over HTTP. */
function checkBatch(batch: unknown[], protocolVersion: string | undefined): LineVerdict {
  const invalid = invalidBody(batch, protocolVersion);
  if (invalid) return { kind: 'answer', reason: 'invalid_request', answer: errorAnswer(invalid) };
  const messages = batch as JSONRPCMessage[];
  const requestIds = messages.flatMap((m) => {
    const r = m as { id?: RequestId; method?: string };
    return r.method !== undefined && r.id !== undefined ? [r.id] : [];
  });
  return { kind: 'batch', messages, requestIds };
}

/** The answer to a line over the limit, which is not read and so has no id (null). */
function tooLargeAnswer(bytes: number, maxLineBytes: number): string {
  return errorAnswer({
    code: RPC_ERROR.InvalidRequest,
    message: `Invalid Request: a line of ${bytes} bytes is over ${maxLineBytes} bytes, the largest message read over stdio; it was discarded unread`,
  });
}

/** An error answer under the request's own id. */
function answerTo(id: RequestId, error: RpcError): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error });
}

/** Answers requests once the server is shutting down (signal): their work would be cut off. */
const SHUTTING_DOWN: RpcError = {
  code: RPC_ERROR.ServerError,
  message: 'Server is shutting down: the request was not handled',
};

export interface LineFilterOptions {
  /** stdout: where the transport writes, and where the filter answers the lines it does not pass on. */
  output: Writable;
  maxLineBytes?: number;
  /** One log entry per line answered here (never its content). */
  log?(entry: { event: 'stdio_refused'; reason: string; bytes: number }): void;
  /** The protocol version the connection negotiated, once it has: batches are read under the versions that had them. */
  protocolVersion?(): string | undefined;
}

/**
 * Reads stdin for the stdio transport: splits lines, parses each once and passes the message on (one per chunk, in
 * object mode), answers the lines that are no message itself on stdout, and stops taking lines while stdout is backed
 * up, so that a client that does not read cannot make the server hold answers without bound (stdin is then paused by
 * the pipe). Each answer is one `write` of one whole line, so it never interleaves with the transport's own writes.
 */
export class LineFilter extends Transform {
  readonly #output: Writable;
  readonly #max: number;
  readonly #splitter: LineSplitter;
  readonly #log: LineFilterOptions['log'];
  readonly #protocolVersion: () => string | undefined;
  #refusing = false;
  /** A chunk is being split and handled (perhaps waiting for stdout to drain). */
  #busy = false;

  constructor(options: LineFilterOptions) {
    // One pushed object is one message: the transport hands it to the SDK as it is, with no second parse.
    super({ readableObjectMode: true });
    this.#output = options.output;
    this.#max = options.maxLineBytes ?? STDIO_MAX_LINE_BYTES;
    this.#splitter = new LineSplitter(this.#max);
    this.#log = options.log;
    this.#protocolVersion = options.protocolVersion ?? (() => undefined);
  }

  /** From now on requests are answered with SHUTTING_DOWN; notifications and responses (to forms) still pass. */
  refuseRequests(): void {
    this.#refusing = true;
  }

  /** Every line received so far has been handled: passed on or answered. */
  get idle(): boolean {
    return !this.#busy && this.writableLength === 0;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#busy = true;
    this.#splitter.push(chunk);
    this.#pump((error) => {
      this.#busy = false;
      done(error);
    });
  }

  override _flush(done: TransformCallback): void {
    const last = this.#splitter.end();
    if (last) this.#handle(last);
    done();
  }

  /** One line per turn of the event loop: a quick request is answered (and stdout may fill) before the next is read. */
  #pump(done: TransformCallback): void {
    if (this.#backedUp()) return this.#afterDrain(() => this.#pump(done));
    const event = this.#splitter.next();
    if (!event) return done();
    this.#handle(event);
    setImmediate(() => this.#pump(done));
  }

  #handle(event: LineEvent): void {
    if (event.kind === 'too_large')
      return this.#answer(tooLargeAnswer(event.bytes, this.#max), 'too_large', event.bytes);
    const verdict = checkLine(event.line, this.#protocolVersion());
    if (verdict.kind === 'blank') return;
    if (verdict.kind === 'answer') return this.#answer(verdict.answer, verdict.reason, event.line.length);
    if (verdict.kind === 'batch') {
      if (this.#refusing && verdict.requestIds.length > 0) {
        const answers = verdict.requestIds.map((id) => ({ jsonrpc: '2.0', id, error: SHUTTING_DOWN }));
        return this.#answer(JSON.stringify(answers), 'shutting_down', event.line.length);
      }
      // One object for the whole batch: the transport answers its requests together, in one line.
      this.push(verdict.messages);
      return;
    }
    if (this.#refusing && verdict.requestId !== undefined) {
      return this.#answer(answerTo(verdict.requestId, SHUTTING_DOWN), 'shutting_down', event.line.length);
    }
    this.push(verdict.message);
  }

  #answer(answer: string, reason: string, bytes: number): void {
    this.#log?.({ event: 'stdio_refused', reason, bytes });
    if (this.#writable()) this.#output.write(`${answer}\n`);
  }

  #writable(): boolean {
    return !this.#output.destroyed && !this.#output.writableEnded;
  }

  #backedUp(): boolean {
    return this.#output.writableNeedDrain && this.#writable();
  }

  #afterDrain(go: () => void): void {
    afterDrain(this.#output, go);
  }
}

/** Goes on when the output drains, or fails or closes (then nothing waits for it any more). */
export function afterDrain(output: Writable, go: () => void): void {
  const resume = () => {
    output.off('drain', resume);
    output.off('close', resume);
    output.off('error', resume);
    go();
  };
  output.on('drain', resume);
  output.on('close', resume);
  output.on('error', resume);
}
