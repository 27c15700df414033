import type { Answer, AnyOperation, OperationInput } from '../catalogue/types.js';
import type { Config } from '../config.js';
import { USER_AGENT } from '../version.js';
import { CREDENTIAL_HEADERS, authHeaders, secretsOf, type Credential } from '../upstream/auth.js';
import { Redactor } from '../util/redact.js';
import { resolveTarget } from '../upstream/credentials.js';
import { CallFailure, abortedFailure, type CallMeta, type Delivery } from '../upstream/failure.js';
import { send, type OutgoingRequest, type Upstream } from '../upstream/http.js';
import { normaliseArguments } from './arguments.js';
import { decorate } from '../catalogue/compile.js';
import { buildRequest, type BuiltRequest } from '../upstream/request.js';
import { interpretResponse } from '../upstream/response.js';
import { formatIssues } from './validation.js';

export type { CallMeta } from '../upstream/failure.js';

export interface ExecutorDeps {
  config: Pick<Config, 'serviceUrls' | 'credentials' | 'streamingRegion' | 'timeoutMs' | 'limits'>;
  upstream: Upstream;
  /** Epoch milliseconds. */
  now(): number;
  /** A fresh request id (text-generation requests carry one). */
  requestId(): string;
  /** Uniform in [0, 1), for retry jitter. */
  random(): number;
}

export interface CallOptions {
  /** The client's cancellation. */
  signal?: AbortSignal;
  /** Told of what the caller may want to know while the call runs: a retry and its wait, a deprecation. */
  note?: (level: 'notice' | 'warning', message: string) => void;
  /** When the call must end, and the setting that says so; by default SVC_TIMEOUT_MS from now. */
  deadline?: { at: number; setting: string };
}

export interface Executed<Op extends AnyOperation> {
  answer: Answer<Op>;
  meta: CallMeta;
}

/** A validated call, built and ready to be signed: what a dry run shows and what execute sends. */
export interface PreparedCall<Op extends AnyOperation> {
  op: Op;
  args: OperationInput<Op>;
  built: BuiltRequest;
  credential: Credential;
}

const MAX_ATTEMPTS = 3;
const BASE_BACKOFF_MS = 200;

/** Validates and builds a call, or throws the CallFailure that says why nothing can be sent. Pure but for config. */
export function prepare<Op extends AnyOperation>(
  op: Op,
  rawArgs: unknown,
  deps: Pick<ExecutorDeps, 'config'>,
): PreparedCall<Op> {
  // reportInput lets the error say "required" when a field is missing rather than only what was expected.
  const parsed = op.input.safeParse(normaliseArguments(op, rawArgs ?? {}), { reportInput: true });
  if (!parsed.success) throw new CallFailure('invalid_input', formatIssues(parsed.error.issues));
  const args = parsed.data as OperationInput<Op>;
  const { baseUrl, credential } = resolveTarget(deps.config, op.service, op.auth);
  const built = buildRequest(op, args, baseUrl, deps.config.streamingRegion);
  return { op, args, built, credential };
}

/** The request of one attempt, signed now (a fresh timestamp and request id every time). */
export function signRequest(
  call: PreparedCall<AnyOperation>,
  deps: Pick<ExecutorDeps, 'now' | 'requestId'>,
): OutgoingRequest {
  const { op, built, credential } = call;
  const headers = {
    ...authHeaders(credential, { method: built.method, uri: built.uri, now: deps.now(), requestId: deps.requestId() }),
    accept: decorate(op).accept,
    'user-agent': USER_AGENT,
    ...(built.body !== undefined ? { 'content-type': 'application/json' } : {}),
  };
  return { method: built.method, url: built.url, headers, body: built.body };
}

/**
 * The one executor: validate -> build -> sign -> send -> interpret, with retries for operations that are safe to
 * repeat and one deadline over all attempts. Resolves with the typed answer and what happened on the wire; throws
 * a CallFailure that carries the same `meta`.
 */
export function execute<Op extends AnyOperation>(
  op: Op,
  rawArgs: unknown,
  deps: ExecutorDeps,
  options: CallOptions = {},
): Promise<Executed<Op>> {
  return run(op, () => prepare(op, rawArgs, deps), deps, options);
}

/** The same for a call already prepared (validated and built), e.g. one the user has just confirmed. */
export function executePrepared<Op extends AnyOperation>(
  call: PreparedCall<Op>,
  deps: ExecutorDeps,
  options: CallOptions = {},
): Promise<Executed<Op>> {
  return run(call.op, () => call, deps, options);
}

async function run<Op extends AnyOperation>(
  op: Op,
  prepared: () => PreparedCall<Op>,
  deps: ExecutorDeps,
  options: CallOptions,
): Promise<Executed<Op>> {
  const started = deps.now();
  const meta: CallMeta = { attempts: 0, delivery: 'no', durationMs: 0 };
  try {
    const call = prepared();
    const deadline = Math.min(started + deps.config.timeoutMs, options.deadline?.at ?? Infinity);
    // SVC_TIMEOUT_MS counts from the call's start, its wait for a place included; another deadline (the workflow's)
    // is named as such.
    const ownDeadline =
      options.deadline &&
      options.deadline.setting !== 'SVC_TIMEOUT_MS' &&
      options.deadline.at < started + deps.config.timeoutMs;
    const timeoutLabel = ownDeadline
      ? `the call's deadline (${options.deadline!.setting})`
      : `${deps.config.timeoutMs} ms (SVC_TIMEOUT_MS)`;
    // What this call sends that is secret: its keys, and each attempt's signature. An upstream that echoes them is
    // cleaned before any excerpt is cut from its answer, so that no part of one survives.
    const sent = new Set(secretsOf(call.credential));
    for (;;) {
      if (options.signal?.aborted) throw abortedFailure(options.signal, 'no');
      meta.attempts += 1;
      try {
        const request = signRequest(call, deps);
        for (const [name, value] of Object.entries(request.headers))
          if (CREDENTIAL_HEADERS.has(name.toLowerCase())) sent.add(value);
        const answered = await send(deps.upstream, request, {
          deadline,
          maxBytes: deps.config.limits.maxResponseBytes,
          now: deps.now,
          signal: options.signal,
          timeoutLabel,
        });
        meta.delivery = 'yes';
        meta.status = answered.status;
        const raw = { ...answered, text: new Redactor(sent, CREDENTIAL_HEADERS).redact(answered.text) };
        if (answered.deprecation)
          options.note?.(
            'notice',
            `${op.name}: the upstream marks ${call.built.uri.split('?')[0]} as deprecated (${answered.deprecation})`,
          );
        const answer = interpretResponse(op, raw);
        meta.durationMs = deps.now() - started;
        return { answer, meta };
      } catch (error) {
        if (!(error instanceof CallFailure)) throw error;
        meta.delivery = furthest(meta.delivery, error.delivery ?? 'maybe');
        if (error.httpStatus !== undefined) meta.status = error.httpStatus;
        const wait = error.retryAfterMs ?? BASE_BACKOFF_MS * 2 ** (meta.attempts - 1) * (0.5 + deps.random());
        const again =
          error.retryable &&
          (safeToRepeat(op) || error.delivery === 'no') &&
          meta.attempts < MAX_ATTEMPTS &&
          deps.now() + wait < deadline &&
          !options.signal?.aborted;
        if (!again) throw withOutcome(op, error, meta);
        options.note?.(
          'warning',
          `${op.name}: ${error.message.replace(/\.$/, '')}; attempt ${meta.attempts + 1} of ${MAX_ATTEMPTS} in ${Math.round(wait)} ms`,
        );
        await sleep(wait, options.signal);
      }
    }
  } catch (error) {
    meta.durationMs = deps.now() - started;
    throw CallFailure.from(error, meta);
  }
}

/**
 * Whether an operation may be sent again after a failure that may have reached the upstream: only what repeats
 * without effect (idempotent and not destructive). A completion (E12) costs each time, a second delete (E11) could
 * report "not found" for one that succeeded; those are sent again only when the first attempt never left.
 */
const safeToRepeat = (op: AnyOperation) => op.annotations.idempotentHint && !op.annotations.destructiveHint;

const DELIVERY_ORDER: readonly Delivery[] = ['no', 'maybe', 'yes'];
const furthest = (a: Delivery, b: Delivery) => (DELIVERY_ORDER.indexOf(a) >= DELIVERY_ORDER.indexOf(b) ? a : b);

/** What the caller must know about a failed call beyond the error: whether anything may have changed. */
function withOutcome(op: AnyOperation, failure: CallFailure, { delivery, status }: CallMeta): CallFailure {
  if (failure.code === 'invalid_input' || failure.code === 'not_configured') return failure;
  const add = (note: string) => failure.withMessage(`${failure.message.replace(/[.\s]*$/, '')}. ${note}`);
  if (delivery === 'no') return add('The request was not sent.');
  if (op.annotations.readOnlyHint) {
    // A call stopped midway says so even when it reads: the caller may wonder whether to ask again.
    const stopped = failure.code === 'shutting_down' || failure.code === 'cancelled';
    return stopped && delivery === 'maybe'
      ? add('The request may have reached the upstream (it changes nothing there).')
      : failure;
  }
  // The status line came, then the answer broke off or stalled (the message says which status): unless the upstream
  // refused the request (4xx), it may have done its work.
  const cutOff =
    (failure.code === 'connection_failed' || failure.code === 'timeout') && failure.httpStatus !== undefined;
  if (cutOff && !(failure.httpStatus! >= 400 && failure.httpStatus! < 500))
    return add('The change may have been made: check before calling again.');
  // A documented failure code (E15's code other than SUCCESS) says the request was refused: nothing to check.
  if (failure.refused) return failure;
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

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
