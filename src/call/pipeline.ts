import type { AnyOperation } from '../catalogue/types.js';
import type { Redactor } from '../util/redact.js';
import type { Calls } from './admission.js';
import { decorate } from '../catalogue/compile.js';
import { dryRunReply } from './dry-run.js';
import { CallFailure, type CallMeta } from '../upstream/failure.js';
import { executePrepared, prepare, signRequest, type ExecutorDeps } from './attempts.js';
import { shortenToFit, shortenedNote } from './result-size.js';
import { takeSafetyArgs } from './safety-args.js';
import { errorResult, type ToolResult } from './tool-result.js';

/** A message for the client while a call runs (a retry and its wait, an upstream deprecation): MCP logging. */
export type Note = (level: 'info' | 'notice' | 'warning', message: string) => void;

export interface CallLog {
  (entry: {
    tool: string;
    outcome: string;
    durationMs: number;
    attempts: number;
    httpStatus?: number;
    sub?: string;
    client_id?: string;
  }): void;
}

/**
 * What every tool call shares: the executor's dependencies, the admission of calls, what to keep out of results, the
 * log.
 */
export interface CallFrame {
  deps: ExecutorDeps;
  now(): number;
  calls: Calls;
  /** Knows every configured secret; the call's own signatures are added to it as they are made. */
  redactor: Redactor;
  /** Largest result, text and structured content together (SVC_MAX_RESULT_BYTES). */
  maxResultBytes: number;
  log: CallLog;
  /** Destructive calls need the user's confirmation (off with --no-confirm). */
  confirmDestructive: boolean;
}

/** What the user is asked before a destructive call (E11, E15). */
export interface ConfirmationRequest {
  tool: string;
  /** The argument whose value the user types, e.g. keyTag, and that value. */
  field: string;
  id: string;
  /** What the call will do, in words a user reads before agreeing. */
  consequence: string;
  /** The validated arguments: a confirmation holds for these and no others. */
  args: Record<string, unknown>;
  /** The `confirm` argument, for clients that show no forms. */
  confirm?: string;
}

/**
 * The MCP layer's answer: go on, or ask the user first (`pending` is what the MCP layer returns to the client
 * meanwhile: a 2026-07-28 input request). A refusal is thrown as a CallFailure.
 */
export type Confirmation = { kind: 'confirmed' } | { kind: 'ask'; pending: unknown };

/** What the MCP layer gives one call: who asks, the client's cancellation, its log channel, how its user confirms. */
export interface CallHooks {
  /** The client the call is for (a session id, an address, stdio): clients take turns for places. */
  client?: string;
  /** Who calls, as an OAuth access token says (its `sub` and its client): for the log line, never the token. */
  who?: { sub: string; client_id?: string };
  signal: AbortSignal;
  note: Note;
  confirm(request: ConfirmationRequest): Promise<Confirmation>;
}

/** A call ends with a result, or with a question for the user; after the answer the client calls again. */
export type ToolOutcome = { kind: 'result'; result: ToolResult } | { kind: 'input'; pending: unknown };

/**
 * What a call answers, before it becomes a result: JSON (structured content, and the same JSON as text unless
 * `text` says it in words), or text alone (E5's XML). `paging` tells how to get what a shortened list left out.
 */
export type Reply = { json: object; text?: string; paging?: string } | { text: string };

/** A finished piece of work: its reply and what happened on the wire (absent when nothing was sent), or a question. */
export type Completed = { reply: Reply; meta?: CallMeta } | { pending: unknown };

/** The moment a call must end, and the setting that says so. */
export interface Deadline {
  at: number;
  setting: string;
}

/**
 * Waits for the call's place among the calls of the process; the work calls it just before it sends. The wait
 * counts toward the deadline (by default SVC_TIMEOUT_MS from the call's start), which the work passes on.
 */
export type Admit = (signal: AbortSignal, deadline?: Deadline) => Promise<Deadline>;

/** An error message longer than this is cut: an upstream's detail must not become a result of megabytes. */
const MAX_ERROR_CHARS = 4000;

/**
 * The one pipeline of an operation: validate -> build -> (dry run: sign and stop) -> confirm -> wait for a place ->
 * sign -> send -> interpret -> render. Nothing is sent before the arguments passed and, for a destructive call, the
 * user agreed; a call waiting for the user holds no place.
 */
export function callOperation(
  op: AnyOperation,
  rawArgs: Record<string, unknown> | undefined,
  frame: CallFrame,
  hooks: CallHooks,
): Promise<ToolOutcome> {
  return runCall(frame, op.name, hooks, async (signal, admit) => {
    const { safety, rest } = takeSafetyArgs(op, rawArgs);
    const call = prepare(op, rest, frame.deps);
    if (safety.dryRun) return { reply: dryRunReply(signRequest(call, frame.deps)) };
    const { confirmation, paging } = decorate(op);
    if (confirmation && frame.confirmDestructive) {
      const args = call.args as Record<string, unknown>;
      const request = {
        tool: op.name,
        field: confirmation.field,
        id: confirmation.id(args),
        consequence: confirmation.consequence(args),
        args,
      };
      const answer = await hooks.confirm(
        safety.confirm === undefined ? request : { ...request, confirm: safety.confirm },
      );
      if (answer.kind === 'ask') return { pending: answer.pending };
    }
    const deadline = await admit(signal);
    const { answer, meta } = await executePrepared(call, frame.deps, { signal, note: hooks.note, deadline });
    return { reply: answer.kind === 'text' ? { text: answer.value } : { json: answer.value, paging }, meta };
  });
}

/**
 * The frame of every tool call: gives it a signal that the client's cancellation and the server's shutdown both
 * abort, a place among the calls of the process when it asks for one, times it, turns any failure into an error
 * result (`describe` words it), keeps secrets out of whatever is returned, keeps the result within its size, and
 * logs one line without argument values.
 */
export async function runCall(
  frame: CallFrame,
  tool: string,
  hooks: Pick<CallHooks, 'signal' | 'client' | 'who'>,
  work: (signal: AbortSignal, admit: Admit) => Promise<Completed>,
  describe: (failure: CallFailure) => string = (f) => `${tool} failed [${f.code}]: ${f.message}`,
): Promise<ToolOutcome> {
  const started = frame.now();
  const { signal, done } = frame.calls.open(hooks.signal);
  let release: (() => void) | undefined;
  // SVC_TIMEOUT_MS counts from the moment the call asks for its place: its wait for one counts, its user's time with a
  // confirmation form (before it asks) does not.
  const admit: Admit = async (
    s,
    deadline = { at: frame.now() + frame.deps.config.timeoutMs, setting: 'SVC_TIMEOUT_MS' },
  ) => {
    release ??= await frame.calls.admit(s, { client: hooks.client, deadline, now: frame.now });
    return deadline;
  };
  let outcome: ToolOutcome;
  let meta: CallMeta | undefined;
  let logged = 'ok';
  try {
    const completed = await work(signal, admit);
    if ('pending' in completed) {
      logged = 'input_required';
      outcome = { kind: 'input', pending: completed.pending };
    } else {
      meta = completed.meta;
      outcome = { kind: 'result', result: render(completed.reply, frame) };
    }
  } catch (error) {
    const failure = CallFailure.from(error);
    logged = failure.code;
    meta = failure.meta ?? meta;
    outcome = { kind: 'result', result: errorResult(cut(frame.redactor.redact(describe(failure)), MAX_ERROR_CHARS)) };
  } finally {
    release?.();
    done();
  }
  frame.log({
    tool,
    outcome: logged,
    durationMs: frame.now() - started,
    attempts: meta?.attempts ?? 0,
    httpStatus: meta?.status,
    ...hooks.who,
  });
  return outcome;
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const cut = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}… (cut: ${text.length - max} more characters)` : text;

/**
 * A reply as a result: secrets redacted, and within the size limit. JSON appears as structured content and, unless
 * the reply words it otherwise, as the same JSON text; an answer too large for that has its longest lists cut, and a
 * second text item says what was left out and how to get it.
 */
function render(reply: Reply, frame: CallFrame): ToolResult {
  const { redactor, maxResultBytes: max } = frame;
  if (!('json' in reply)) {
    const text = redactor.redact(reply.text);
    if (bytes(text) <= max) return { content: [{ type: 'text', text }] };
    const kept = Buffer.from(text, 'utf8')
      .subarray(0, max - 300)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    return {
      content: [
        { type: 'text', text: kept },
        {
          type: 'text',
          text: `Cut to fit SVC_MAX_RESULT_BYTES (${max}): ${kept.length} of ${text.length} characters shown.`,
        },
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
    throw new CallFailure(
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
