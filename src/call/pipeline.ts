import type { CompiledOperation } from '../catalogue/compile.js';
import type { Answer, AnyOperation } from '../catalogue/types.js';
import { CallFailure } from '../failures.js';
import {
  exchange,
  prepareRequest,
  wouldSend,
  type Deadline,
  type ExchangeDeps,
  type Note,
  type PreparedRequest,
} from '../upstream/index.js';
import type { Redactor } from '../util/redact.js';
import type { Calls } from './admission.js';
import { readArguments, type SafetyArgs } from './arguments.js';
import { confirm, type ClientQuestion, type Confirmer } from './confirmation.js';
import { CALL_STAGES, type CallStage } from './stages.js';
import { traced } from './traced-stages.js';
import { dryRunReply } from './dry-run.js';
import { newRecord, type CallRecord } from './record.js';
import { itemsAResultCanShow, render, type Reply } from './render.js';
import { errorResult, type ToolResult } from './tool-result.js';

export type { Note } from '../upstream/index.js';

/** One line per call in the log: no argument values, ever. */
type CallLog = (entry: {
  tool: string;
  outcome: string;
  durationMs: number;
  attempts: number;
  httpStatus?: number;
  /** In OAuth mode: the token's subject and client, never the token, and the credential profile it picked. */
  sub?: string;
  client_id?: string;
  profile?: string;
}) => void;

/** What every call of the process shares: the exchange's dependencies, the places to run, the secrets, the log. */
export interface CallFrame {
  deps: ExchangeDeps;
  calls: Calls;
  /** Knows every configured secret; each call adds its own signatures. */
  redactor: Redactor;
  /** Largest result, text and structured content together (SVC_MAX_RESULT_BYTES). */
  maxResultBytes: number;
  log: CallLog;
  /** Destructive calls need the user's confirmation (off with --no-confirm). */
  confirmDestructive: boolean;
  /** The credential profile whose keys the calls use, when the server has profiles: log lines and telemetry name it. */
  profile?: string;
}

/**
 * What the MCP surface gives one call: who asks, its cancellation, its log and progress channels, and how its user is
 * asked to confirm it.
 */
export interface CallContext {
  /** The client the call is for (a session id, an address, stdio): clients take turns for places. */
  client?: string;
  /** Who calls, as an OAuth access token says (its `sub` and its client): for the log line, never the token. */
  who?: { sub: string; client_id?: string };
  signal: AbortSignal;
  note: Note;
  progress(progress: number, total: number, message: string): Promise<void>;
  confirmer: Confirmer;
}

/** A call ends with a result, or with a question for the user (2026-07-28); after the answer the client calls again. */
export type ToolOutcome = { kind: 'result'; result: ToolResult } | { kind: 'input'; question: ClientQuestion };

/** A call under way, as its work sees it. */
export interface RunningCall {
  /** Aborted by the client's cancellation or the server's shutdown. */
  signal: AbortSignal;
  record: CallRecord;
  /**
   * The admission stage: waits for a place among the calls of the process. The deadline starts now (SVC_TIMEOUT_MS:
   * the wait counts, a user's time with a confirmation form before it does not) unless the call brings its own.
   */
  admit(deadline?: Deadline): Promise<Deadline>;
  /** The exchange stage, for this call: the platform client signs, sends, reads, and retries. */
  exchange<Op extends AnyOperation>(prepared: PreparedRequest<Op>, deadline: Deadline): Promise<Answer<Op>>;
}

/**
 * What a call's work returns: a reply to render, a question for the client, or a failure with what the work had
 * finished before it (`more`, a text within the result limit: a workflow's billed translations).
 */
export type Completed = { reply: Reply } | { input: ClientQuestion } | { failed: CallFailure; more: string };

/** What the arguments stage leaves: the safety arguments, the checked arguments and the request they make. */
export interface Argued<Op extends AnyOperation = AnyOperation> {
  safety: SafetyArgs;
  args: Record<string, unknown>;
  prepared: PreparedRequest<Op>;
}

/** The arguments stage: checked as the operation's own, then built into the request with its credential. */
export function argumentsStage<Op extends AnyOperation>(
  operation: CompiledOperation<Op>,
  rawArgs: Record<string, unknown> | undefined,
  settings: ExchangeDeps['settings'],
): Argued<Op> {
  const { safety, args } = readArguments(operation, rawArgs);
  return { safety, args, prepared: prepareRequest(operation, args, settings) };
}

/** One call of one operation as its stages see it: each reads what the stages before it left. */
interface OperationCall {
  operation: CompiledOperation;
  rawArgs: Record<string, unknown> | undefined;
  frame: CallFrame;
  ctx: CallContext;
  call: RunningCall;
  argued?: Argued;
  deadline?: Deadline;
}

/** The stages runCall runs for every tool call, after the work (the workflow's too). */
type RunCallStage = 'render' | 'log';

/**
 * The stages of a call of one operation, run in the order of CALL_STAGES (render and log are runCall's, shared with the
 * workflow): a stage that ends the call returns what it ends with. No request leaves before the arguments passed and,
 * for a destructive call, the user agreed; a call waiting for its user holds no place.
 */
const OPERATION_STAGES: {
  readonly [S in Exclude<CallStage, RunCallStage>]: (c: OperationCall) => Promise<Completed | undefined>;
} = {
  arguments: async (c) => void (c.argued = argumentsStage(c.operation, c.rawArgs, c.frame.deps.settings)),
  'dry run': async ({ argued, frame }) =>
    argued!.safety.dryRun ? { reply: dryRunReply(wouldSend(argued!.prepared, frame.deps)) } : undefined,
  confirmation: async ({ operation, frame, ctx, argued }) => {
    if (!frame.confirmDestructive) return undefined;
    const confirmed = await confirm(operation, argued!.args, argued!.safety.confirm, ctx.confirmer);
    return confirmed.kind === 'ask' ? { input: confirmed.question } : undefined;
  },
  admission: async (c) => void (c.deadline = await c.call.admit()),
  exchange: async ({ operation, call, argued, deadline }) => {
    const { args, prepared } = argued!;
    const answer = await call.exchange(prepared, deadline!);
    return {
      reply:
        answer.kind === 'text'
          ? { text: answer.value, answeredAs: prepared.asked === 'json' ? 'text' : prepared.asked }
          : {
              json: answer.value,
              paging: operation.paging && ((cut) => operation.paging!(args, cut)),
              echoes: Object.values(args).filter((v): v is string => typeof v === 'string' && v.length >= ECHO_CHARS),
              counted: answer.counted,
            },
    };
  },
};

/** A call of one operation: its stages run in the order of CALL_STAGES inside the frame of every tool call. */
export function callOperation(
  operation: CompiledOperation,
  rawArgs: Record<string, unknown> | undefined,
  frame: CallFrame,
  ctx: CallContext,
): Promise<ToolOutcome> {
  return runCall(frame, operation.name, ctx, async (call) => {
    const c: OperationCall = { operation, rawArgs, frame, ctx, call };
    for (const stage of CALL_STAGES) {
      if (stage === 'render' || stage === 'log') break;
      // The confirmation's span reads how the user is asked: not at all with --no-confirm.
      const confirmer = frame.confirmDestructive ? ctx.confirmer : undefined;
      const view = { operation, confirmer, confirmArgument: c.argued?.safety.confirm };
      const ended = await traced(stage, frame.deps.telemetry, view, () => OPERATION_STAGES[stage](c));
      if (ended) return ended;
    }
    throw new Error('the stages of a call ended without a reply');
  });
}

/** A string argument this long that the answer repeats (E12's prompt) is what a too-large result loses first. */
const ECHO_CHARS = 200;

/** An error message longer than this is cut: an upstream's detail must not become a result of megabytes. */
const MAX_ERROR_CHARS = 4000;

/**
 * The frame of every tool call: one record and one signal (the client's cancellation and the server's shutdown),
 * a place among the calls of the process when the work asks for one, released at the end; the reply rendered, any
 * failure turned into an error result (`describe` words it); one log line without argument values.
 */
export async function runCall(
  frame: CallFrame,
  tool: string,
  ctx: Pick<CallContext, 'signal' | 'client' | 'note' | 'who'>,
  work: (call: RunningCall) => Promise<Completed>,
  describe: (failure: CallFailure) => string = (f) => `${tool} failed [${f.code}]: ${f.message}`,
): Promise<ToolOutcome> {
  const { deps, calls } = frame;
  const record = newRecord(tool, deps.now());
  const { signal, done } = calls.open(ctx.signal);
  let release: (() => void) | undefined;
  const call: RunningCall = {
    signal,
    record,
    async admit(deadline = { at: deps.now() + deps.settings.timeoutMs, setting: deps.settings.words.timeout }) {
      if (release) return deadline;
      release = await calls.admit(signal, { client: ctx.client, deadline, now: deps.now });
      return deadline;
    },
    exchange: (prepared, deadline) =>
      exchange(prepared, {
        deps,
        signal,
        note: ctx.note,
        deadline,
        redactor: frame.redactor,
        record,
        keepItems: itemsAResultCanShow(frame.maxResultBytes),
      }),
  };
  let outcome: ToolOutcome;
  let logged = 'ok';
  try {
    const completed = await work(call);
    if ('input' in completed) {
      logged = 'input_required';
      outcome = { kind: 'input', question: completed.input };
    } else if ('failed' in completed) {
      logged = completed.failed.code;
      const failure = errorResult(cut(describe(completed.failed), MAX_ERROR_CHARS));
      outcome = {
        kind: 'result',
        result: { ...failure, content: [...failure.content, { type: 'text', text: completed.more }] },
      };
    } else {
      outcome = { kind: 'result', result: await render(completed.reply, frame.maxResultBytes) };
    }
  } catch (error) {
    const failure = CallFailure.from(error);
    logged = failure.code;
    outcome = { kind: 'result', result: errorResult(cut(describe(failure), MAX_ERROR_CHARS)) };
  } finally {
    release?.();
    done();
  }
  deps.telemetry?.callEnded(logged, frame.profile);
  frame.log({
    tool,
    outcome: logged,
    durationMs: deps.now() - record.started,
    attempts: record.attempts,
    httpStatus: record.status,
    ...(frame.profile ? { profile: frame.profile } : {}),
    ...ctx.who,
  });
  return outcome;
}

const cut = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}… (cut: ${text.length - max} more characters)` : text;
