// The platform client's face, and its one entry: `exchange` (below) signs, sends, reads and retries one call's
// request; the rest of src/ reaches the client only through what this file exports. It knows the catalogue and
// nothing of MCP or of the call pipeline above it.
import type { CompiledOperation } from '../catalogue/compile.js';
import type { Answer, AnyOperation } from '../catalogue/types.js';
import type { AttemptSpan, Telemetry } from '../telemetry/telemetry.js';
import { nextTurn } from '../util/next-turn.js';
import type { Redactor } from '../util/redact.js';
import { CREDENTIAL_HEADERS, secretsOf } from './auth.js';
import { CallFailure, abortedFailure, nothingSent, type Delivery } from '../failures.js';
import { lateFailure } from './failure.js';
import { send, type OutgoingRequest, type Upstream } from './http.js';
import type { PreparedRequest } from './request.js';
import { interpretResponse } from './response.js';
import type { ClientSettings } from './settings.js';
import { signRequest } from './sign.js';

export { CREDENTIAL_HEADERS, HEADER, signatureV2, type GatewayKeys } from './auth.js';
export { createUpstream, type OutgoingRequest, type Upstream } from './http.js';
export { prepareRequest, type PreparedRequest } from './request.js';
export type { ClientSettings } from './settings.js';

/** A message for the client while a call runs (a retry and its wait, an upstream deprecation): MCP logging. */
export type Note = (level: 'info' | 'notice' | 'warning', message: string) => void;

/**
 * The moment a call must end, and the setting that says so (named in a timeout's message): the client's timeout, or
 * the deadline of a longer flow (the workflow's).
 */
export interface Deadline {
  at: number;
  setting: string;
}

/** What the wire of a call did so far, kept by the caller (a workflow's steps share one). */
export interface WireRecord {
  attempts: number;
  /** Whether the last attempt reached the upstream ('no' before anything was sent). */
  delivery: Delivery;
  /** HTTP status of the last answer, when one came. */
  status?: number;
}

/** What the exchanges of every call share: the client's settings, the wire, the clock and chance. */
export interface ExchangeDeps {
  settings: ClientSettings;
  upstream: Upstream;
  /** Epoch milliseconds. */
  now(): number;
  /** A fresh request id (text-generation requests carry one). */
  requestId(): string;
  /** Uniform in [0, 1), for retry jitter. */
  random(): number;
  /** A CLIENT span per attempt, when telemetry is on. */
  telemetry?: Telemetry;
}

/** What one call's exchange is given by the pipeline. */
export interface ExchangeContext {
  deps: ExchangeDeps;
  signal: AbortSignal;
  note: Note;
  /** The call's deadline, set when it asked for its place. */
  deadline: Deadline;
  /** Knows every configured secret; each attempt's signature is added for the answer it brings. */
  redactor: Redactor;
  record: WireRecord;
  /** Of a long list no more items are kept than a result can show. */
  keepItems: number;
}

const MAX_ATTEMPTS = 3;
const BASE_BACKOFF_MS = 200;

/** What a dry run shows: the request this exchange would send now, signed (its secrets are the caller's to hide). */
export const wouldSend = (prepared: PreparedRequest, deps: ExchangeDeps): OutgoingRequest =>
  signRequest(prepared, deps);

/**
 * The one exchange with the platform: sign -> send -> redact on arrival -> interpret, again after a failure worth
 * retrying when the operation is safe to repeat (or the request provably never left), within one deadline over all
 * attempts, never more than the client's timeout from the first. No request leaves once the deadline has passed. Each
 * attempt is counted in the caller's record; a failure says what the caller must know of the outcome.
 */
export async function exchange<Op extends AnyOperation>(
  prepared: PreparedRequest<Op>,
  ctx: ExchangeContext,
): Promise<Answer<Op>> {
  const { deps } = ctx;
  const { operation, built } = prepared;
  const { record, signal } = ctx;
  const { timeoutMs, words } = deps.settings;
  const cap = deps.now() + timeoutMs;
  // A deadline of its own (the workflow's) that ends before the client's timeout would is named as such.
  const own = ctx.deadline.setting !== words.timeout && ctx.deadline.at < cap;
  const deadline = Math.min(cap, ctx.deadline.at);
  const timeoutLabel = own ? `the call's deadline (${ctx.deadline.setting})` : `${timeoutMs} ms (${words.timeout})`;
  // What this call sends that is secret: the configured keys (the redactor knows them) and each attempt's signature.
  // An upstream that echoes them is cleaned before anything is read or cut from its answer.
  const sent = new Set(secretsOf(prepared.credential));
  // This call's wire so far, also kept in the record (which a workflow's steps share).
  const wire: { attempts: number; delivery: Delivery; status?: number } = { attempts: 0, delivery: 'no' };
  const saw = (patch: Partial<typeof wire>) => {
    Object.assign(wire, patch);
    record.delivery = wire.delivery;
    if (wire.status !== undefined) record.status = wire.status;
  };
  // Attempts that may have reached the upstream's work (a 5xx, a reset, a stall): billed where the service bills.
  let billedAttempts = 0;
  try {
    for (;;) {
      if (signal.aborted) throw abortedFailure(signal, 'no');
      if (deps.now() >= deadline)
        throw lateFailure(
          timeoutLabel,
          wire.attempts === 0 ? 'the request could be sent' : 'the next attempt could be sent',
        );
      wire.attempts += 1;
      record.attempts += 1;
      let traced: AttemptSpan | undefined;
      // Knows what this attempt sent; the configured keys' spellings are the base redactor's, worked out once.
      let redactor = ctx.redactor;
      try {
        const request = signRequest(prepared, deps);
        for (const [name, value] of Object.entries(request.headers))
          if (CREDENTIAL_HEADERS.has(name.toLowerCase())) sent.add(value);
        redactor = ctx.redactor.with(sent);
        traced = deps.telemetry?.attempt({
          method: built.method,
          url: built.url,
          template: operation.spec.path,
          resendCount: wire.attempts - 1,
        });
        const answered = await send(deps.upstream, request, {
          deadline,
          maxBytes: deps.settings.maxResponseBytes,
          maxBytesSetting: words.maxResponseBytes,
          now: deps.now,
          signal,
          timeoutLabel,
        });
        saw({ delivery: 'yes', status: answered.status });
        traced?.end(answered.status);
        if (answered.deprecation) {
          // Redacted whole, then cut: the headers are the upstream's to fill.
          const said = redactor.redact(answered.deprecation);
          const shown = said.length > NOTICE_CHARS ? `${said.slice(0, NOTICE_CHARS)}…` : said;
          ctx.note(
            'notice',
            `${operation.name}: the upstream marks ${built.uri.split('?')[0]} as deprecated (${shown})`,
          );
        }
        // A large answer is cleaned and read in slices, the event loop free between them for other clients.
        const text = await redactor.redactInWindows(answered.text);
        // Its headers too: the content type is quoted when the body is not what was asked for.
        const contentType = redactor.redact(answered.contentType);
        return await interpretResponse(operation, { ...answered, text, contentType }, prepared.asked, nextTurn, {
          keepItems: ctx.keepItems,
          callback: prepared.callback,
        });
      } catch (thrown) {
        traced?.end(thrown instanceof CallFailure ? thrown.httpStatus : undefined, failureType(thrown));
        if (!(thrown instanceof CallFailure)) throw thrown;
        // Whatever of the upstream's a message quotes (a Content-Encoding, a part of the body) passes this call's
        // redactor: the egress filter knows the configured keys, not this request's signature.
        const said = redactor.redact(thrown.message);
        const error = said === thrown.message ? thrown : thrown.withMessage(said);
        if (mayHaveWorked(error)) billedAttempts += 1;
        saw({
          delivery: furthest(wire.delivery, error.delivery ?? 'maybe'),
          ...(error.httpStatus !== undefined ? { status: error.httpStatus } : {}),
        });
        const { attempts } = wire;
        const wait = error.retryAfterMs ?? BASE_BACKOFF_MS * 2 ** (attempts - 1) * (0.5 + deps.random());
        const again =
          error.retryable &&
          (operation.repeatable || error.delivery === 'no') &&
          attempts < MAX_ATTEMPTS &&
          deps.now() + wait < deadline &&
          !signal.aborted;
        if (!again) {
          throw attempts > 1
            ? error.withMessage(`${error.message.replace(/[.\s]*$/, '')} (after ${attempts} attempts).`)
            : error;
        }
        const billed = operation.billed && mayHaveWorked(error) ? ` (${operation.billed(1)})` : '';
        ctx.note(
          'warning',
          `${operation.name}: ${error.message.replace(/\.$/, '')}${billed}; attempt ${attempts + 1} of ${MAX_ATTEMPTS} in ${Math.round(wait)} ms`,
        );
        await sleep(wait, signal);
      }
    }
  } catch (error) {
    throw withOutcome(operation, CallFailure.from(error), wire, billedAttempts);
  }
}

/** The most of the upstream's Deprecation and Sunset values a notice quotes. */
const NOTICE_CHARS = 200;

const failureType = (error: unknown) => (error instanceof CallFailure ? error.code : '_OTHER');

const DELIVERY_ORDER: readonly Delivery[] = ['no', 'maybe', 'yes'];
const furthest = (a: Delivery, b: Delivery) => (DELIVERY_ORDER.indexOf(a) >= DELIVERY_ORDER.indexOf(b) ? a : b);

/**
 * Whether a failed attempt may have reached the upstream's work: it may have been sent and was not refused (no 4xx),
 * e.g. a 5xx, a reset or a stall after sending.
 */
function mayHaveWorked(failure: CallFailure): boolean {
  if (failure.delivery === 'no') return false;
  if (STOPPED_MIDWAY.has(failure.code)) return true;
  return failure.httpStatus !== undefined && failure.httpStatus >= 500;
}

/** Failures that may come after the request was sent and before its answer was whole. */
const STOPPED_MIDWAY: ReadonlySet<string> = new Set(['timeout', 'connection_failed', 'cancelled', 'shutting_down']);

/** A refusal: a 4xx other than 408 (a timeout may come after the work) means the upstream did nothing. */
const refusedStatus = (status: number | undefined) =>
  status !== undefined && status >= 400 && status < 500 && status !== 408;

/** What the caller must know about a failed call beyond the error: whether anything may have changed, or billed. */
function withOutcome(
  operation: CompiledOperation,
  failure: CallFailure,
  { delivery, status }: { delivery: Delivery; status?: number },
  billedAttempts: number,
): CallFailure {
  if (failure.code === 'invalid_input' || failure.code === 'not_configured') return failure;
  const add = (note: string) => failure.withMessage(`${failure.message.replace(/[.\s]*$/, '')}. ${note}`);
  if (delivery === 'no') return failure.withMessage(nothingSent(failure.message));
  if (operation.effect === 'read') {
    const billed = operation.billed && billedAttempts > 0 ? operation.billed(billedAttempts) : undefined;
    // A call stopped midway says so even when it reads: the caller may wonder whether to ask again.
    const stopped = failure.code === 'shutting_down' || failure.code === 'cancelled';
    if (stopped && delivery === 'maybe') {
      return add(`The request may have reached the upstream (it changes nothing there).${billed ? ` ${billed}` : ''}`);
    }
    return billed ? add(billed) : failure;
  }
  // The status line came, then the answer broke off or stalled (the message says which status): unless the upstream
  // refused the request (4xx), it may have done its work.
  const cutOff =
    (failure.code === 'connection_failed' || failure.code === 'timeout') && failure.httpStatus !== undefined;
  if (cutOff && !(failure.httpStatus! >= 400 && failure.httpStatus! < 500))
    return add('The change may have been made: check before calling again.');
  // A documented failure code (E15's code other than SUCCESS), or a 4xx, says the request was refused.
  if (failure.refused) return add('The request was sent and refused: nothing was changed.');
  if (refusedStatus(failure.httpStatus ?? status)) {
    return add(`The request was sent and refused (HTTP ${failure.httpStatus ?? status}): nothing was changed.`);
  }
  if (status !== undefined && status >= 200 && status < 300) {
    return add(
      `The upstream accepted the request (HTTP ${status}), so it may have taken effect: check before calling again.`,
    );
  }
  if (delivery === 'maybe' || (status !== undefined && status >= 500)) {
    return add(
      'The outcome is unknown: the request may have reached the upstream, so check whether it took effect before calling again.',
    );
  }
  return failure;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
