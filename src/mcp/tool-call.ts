import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolFailure, type CallMeta } from '../gateway/errors.js';
import type { Redactor } from '../util/redact.js';
import type { Calls } from './calls.js';
import { shortenToFit, shortenedNote } from './result-size.js';
import { errorResult } from './tool-registry.js';

export interface CallLog {
  (entry: { tool: string; outcome: string; durationMs: number; attempts: number; httpStatus?: number }): void;
}

/** What every tool call shares: the clock, the admission of calls, what to keep out of results, the log. */
export interface CallFrame {
  now(): number;
  calls: Calls;
  /** Knows every configured secret; results and errors pass through it. */
  redactor: Redactor;
  /** Largest result, text and structured content together (SVC_MAX_RESULT_BYTES). */
  maxResultBytes: number;
  log: CallLog;
}

/**
 * What a call answers, before it becomes a result: JSON (structured content, and the same JSON as text unless
 * `text` says it in words), or text alone (E5's XML). `paging` tells how to get what a shortened list left out.
 */
export type Reply = { json: object; text?: string; paging?: string } | { text: string };

/** A finished call: its reply, and what happened on the wire (absent when nothing was sent). */
export interface Completed {
  reply: Reply;
  meta?: CallMeta;
}

/** An error message longer than this is cut: an upstream's detail must not become a result of megabytes. */
const MAX_ERROR_CHARS = 4000;

/**
 * The frame of every tool call: waits for its place among the calls of the process, gives it a signal that the
 * client's cancellation and the server's shutdown both abort, times it, turns any failure into an error result
 * (`describe` words it), keeps secrets out of whatever is returned, keeps the result within its size, and logs one
 * line without argument values.
 */
export async function runToolCall(
  frame: CallFrame,
  tool: string,
  clientSignal: AbortSignal,
  run: (signal: AbortSignal) => Promise<Completed>,
  describe: (failure: ToolFailure) => string = (f) => `${tool} failed [${f.code}]: ${f.message}`,
): Promise<CallToolResult> {
  const started = frame.now();
  const { signal, done } = frame.calls.open(clientSignal);
  let release: (() => void) | undefined;
  let result: CallToolResult;
  let meta: CallMeta | undefined;
  let outcome = 'ok';
  try {
    release = await frame.calls.admit(signal);
    const completed = await run(signal);
    meta = completed.meta;
    result = render(completed.reply, frame);
  } catch (error) {
    const failure = ToolFailure.from(error);
    outcome = failure.code;
    meta = failure.meta ?? meta;
    result = errorResult(cut(frame.redactor.redact(describe(failure)), MAX_ERROR_CHARS));
  } finally {
    release?.();
    done();
  }
  frame.log({ tool, outcome, durationMs: frame.now() - started, attempts: meta?.attempts ?? 0, httpStatus: meta?.status });
  return result;
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (cut: ${text.length - max} more characters)` : text);

/**
 * A reply as a result: secrets redacted, and within the size limit. JSON appears as structured content and, unless
 * the reply words it otherwise, as the same JSON text; an answer too large for that has its longest lists cut, and a
 * second text item says what was left out and how to get it.
 */
function render(reply: Reply, frame: CallFrame): CallToolResult {
  const { redactor, maxResultBytes: max } = frame;
  if (!('json' in reply)) {
    const text = redactor.redact(reply.text);
    if (bytes(text) <= max) return { content: [{ type: 'text', text }] };
    const kept = Buffer.from(text, 'utf8').subarray(0, max - 300).toString('utf8').replace(/\uFFFD$/, '');
    return {
      content: [
        { type: 'text', text: kept },
        { type: 'text', text: `Cut to fit SVC_MAX_RESULT_BYTES (${max}): ${kept.length} of ${text.length} characters shown.` },
      ],
    };
  }
  const raw = JSON.stringify(reply.json);
  const clean = redactor.redact(raw);
  const structured = (clean === raw ? reply.json : JSON.parse(clean)) as Record<string, unknown>;
  const words = reply.text === undefined ? undefined : redactor.redact(reply.text);
  const size = bytes(clean);
  if (size + (words === undefined ? size : bytes(words)) <= max) {
    return { content: [{ type: 'text', text: words ?? clean }], structuredContent: structured };
  }
  // Room for the structured content: all of it beside a text of words, half of it when the text repeats the JSON.
  const room = (words === undefined ? max / 2 : max - bytes(words)) - 400;
  const fitted = room > 0 ? shortenToFit(structured, room) : undefined;
  if (!fitted) {
    throw new ToolFailure(
      'result_too_large',
      `the answer (${size} bytes) is larger than a result may be (SVC_MAX_RESULT_BYTES=${max}) and has no list to shorten`,
    );
  }
  const left = fitted.shortened.map((s) => `${s.path} shows ${s.shown} of ${s.total} items`).join('; ');
  const how = 'paging' in reply && reply.paging ? `To get the rest, ${reply.paging}.` : 'Ask for less to get the rest.';
  return {
    content: [
      { type: 'text', text: words ?? JSON.stringify(fitted.value) },
      { type: 'text', text: shortenedNote(max, left, how) },
    ],
    structuredContent: fitted.value as Record<string, unknown>,
  };
}
