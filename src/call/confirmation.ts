import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type InputRequiredResult,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { CompiledOperation } from '../catalogue/compile.js';
import { CallFailure } from '../failures.js';

/**
 * What the sealed `requestState` of a confirmation proves: the form was asked for this tool with these arguments, of
 * this client (its OAuth subject, session or address, where the transport can tell), with the keys of this credential
 * profile, under this one-time nonce.
 */
export interface ConfirmationState {
  tool: string;
  digest: string;
  client?: string;
  profile?: string;
  nonce?: string;
}

/** A user typing an id into a form can take a while; a form left open longer ends the call. */
const CONFIRMATION_TIMEOUT_MS = 5 * 60_000;

/** The key of the form in `inputRequests` / `inputResponses`. */
const FORM = 'confirmation';

/**
 * How the user of one request can confirm a destructive call:
 * - `input-request`: a 2026-07-28 client that shows forms gets one as an input request; its retry carries the answer
 *   and the state this server sealed over the tool and its arguments, so that any replica sharing the key can finish
 *   the call (tampered or expired state is refused by the SDK before this runs: -32602);
 * - `elicitation`: a 2025 client that shows forms gets the same form by elicitation/create on its session;
 * - `argument`: a client that shows no forms confirms with the `confirm` argument.
 */
export type ConfirmationChannel =
  | { kind: 'argument' }
  | { kind: 'elicitation'; ctx: ServerContext }
  | {
      kind: 'input-request';
      ctx: ServerContext;
      codec: RequestStateCodec<ConfirmationState>;
      /** Who asks: a sealed state answers only for the client it was asked for. */
      client: string | undefined;
      /** Whose keys the call would use: a state sealed for one credential profile confirms no call of another. */
      profile: string | undefined;
      /** The nonces of the states already answered in this process: each is good for one call. */
      spent: SpentStates;
    };

/** What the user is asked before a destructive call (E11, E15). */
interface ConfirmationRequest {
  tool: string;
  /** The argument whose value the user types, e.g. keyTag, and that value. */
  field: string;
  id: string;
  /** What the call will do, in words a user reads before agreeing. */
  consequence: string;
  /** The validated arguments: a confirmation holds for these and no others. */
  args: Record<string, unknown>;
}

/** Go on, or return this input request to the client and wait for its retry. A refusal is thrown. */
export type Confirmed = { kind: 'confirmed' } | { kind: 'ask'; request: InputRequiredResult };

/**
 * The confirmation stage: nothing is sent before the user of a destructive call agreed, by the channel its client
 * has. A call that needs none (not destructive, or --no-confirm) passes.
 */
export async function confirm(
  operation: CompiledOperation,
  args: Record<string, unknown>,
  confirmArgument: string | undefined,
  channel: ConfirmationChannel,
): Promise<Confirmed> {
  const asked = operation.confirmation;
  if (!asked) return { kind: 'confirmed' };
  const request: ConfirmationRequest = {
    tool: operation.name,
    field: asked.field,
    id: asked.id(args),
    consequence: asked.consequence(args),
    args,
  };
  switch (channel.kind) {
    case 'argument':
      checkConfirmArgument(request, confirmArgument);
      return { kind: 'confirmed' };
    case 'elicitation': {
      const answer = await elicit(channel.ctx, request);
      // A host that declares forms but does not answer elicitation/create (-32601) shows none: `confirm` decides.
      if (answer.action === 'unavailable') checkConfirmArgument(request, confirmArgument, 'its host shows no forms');
      else checkFormAnswer(request, answer);
      return { kind: 'confirmed' };
    }
    case 'input-request':
      return askByInputRequest(channel, request);
  }
}

/** Whether the client shows forms: MCP reads a bare `elicitation: {}` as form support. */
export function showsForms(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/**
 * Seals and checks confirmation state (HMAC-SHA256, valid for the form's timeout). With SVC_MCP_STATE_KEY every
 * replica that shares it accepts the state; without it the key is random per process, so the retried call must
 * reach the same process.
 */
export function confirmationCodec(key: string | undefined): RequestStateCodec<ConfirmationState> {
  // Made on first use: the codec reaches for Web Crypto, whose loading is a few ms of every start otherwise, and most
  // sessions never confirm anything.
  let codec: RequestStateCodec<ConfirmationState> | undefined;
  const made = () =>
    (codec ??= createRequestStateCodec<ConfirmationState>({
      key: key ?? globalThis.crypto.getRandomValues(new Uint8Array(32)),
      ttlSeconds: CONFIRMATION_TIMEOUT_MS / 1000,
    }));
  return {
    mint: (payload, ctx) => made().mint(payload, ctx),
    verify: (state, ctx) => made().verify(state, ctx),
  };
}

/** Ends a destructive call before a byte is sent, saying why and what the call would have done. */
function refuse(request: ConfirmationRequest, why: string): never {
  throw new CallFailure('not_confirmed', `${why}. Nothing was sent. (${request.consequence})`);
}

/**
 * For clients that show no forms: the model passes the id as `confirm`, once the user agreed. Anything else ends
 * the call, saying how to confirm it.
 */
function checkConfirmArgument(request: ConfirmationRequest, confirm: string | undefined, why?: string): void {
  const { tool, field, id } = request;
  if (confirm === undefined) {
    refuse(
      request,
      `${tool} needs confirmation${why ? ` (${why})` : ''}: tell the user what will happen, and only if they agree call again with confirm set to the ${field} ("${id}")`,
    );
  }
  if (confirm !== id) refuse(request, `confirm must equal the ${field} ("${id}"), got "${confirm}"`);
}

/** What the user did with the confirmation form; `unavailable`: the client answered that it has no forms. */
type FormAnswer =
  | { action: 'accept'; typed: unknown }
  | { action: 'decline' }
  | { action: 'cancel' }
  | { action: 'missing' }
  | { action: 'unavailable' };

/**
 * What an operator can do when no one answers forms (a headless host cancels every one): said in the refusal, so that
 * the model can pass it on instead of only "cancelled".
 */
const WHEN_NO_ONE_ANSWERS =
  'if no one can answer forms where this runs (a headless host cancels them), the operator can start the server ' +
  'with --no-confirm (SVC_CONFIRM_DESTRUCTIVE=false), or use a client that declares no forms, which then confirms ' +
  'with the confirm argument';

/** The form's answer: the user must have accepted and typed the id exactly. */
function checkFormAnswer(request: ConfirmationRequest, answer: FormAnswer): void {
  if (answer.action === 'decline') refuse(request, 'the user declined');
  if (answer.action === 'cancel') refuse(request, `the user cancelled the confirmation (${WHEN_NO_ONE_ANSWERS})`);
  if (answer.action === 'missing' || answer.action === 'unavailable')
    refuse(request, 'the confirmation form came back without an answer');
  const typed = answer.typed;
  if (typed !== request.id)
    refuse(request, `the user typed ${JSON.stringify(typed ?? '')}, not the ${request.field} "${request.id}"`);
}

/** 2026-07-28: the first call returns the form as an input request; the retry carries its answer and sealed state. */
async function askByInputRequest(
  channel: Extract<ConfirmationChannel, { kind: 'input-request' }>,
  request: ConfirmationRequest,
): Promise<Confirmed> {
  const { ctx, codec, client, profile, spent } = channel;
  const state = ctx.mcpReq.requestState<ConfirmationState>();
  if (state === undefined) {
    const nonce = globalThis.crypto.randomUUID();
    const asked = inputRequired({
      inputRequests: { [FORM]: inputRequired.elicit(form(request)) },
      requestState: await codec.mint({
        tool: request.tool,
        digest: digest(request),
        client,
        ...(profile !== undefined ? { profile } : {}),
        nonce,
      }),
    });
    return { kind: 'ask', request: asked };
  }
  if (typeof state !== 'object' || state === null || state.tool !== request.tool || state.digest !== digest(request)) {
    refuse(request, 'the confirmation answered was asked for another call (other tool or arguments)');
  }
  if (state.client !== client) refuse(request, 'the confirmation answered was asked by another client');
  if (state.profile !== profile)
    refuse(request, 'the confirmation answered was asked under another credential profile');
  checkFormAnswer(request, formAnswer(ctx, request.field));
  if (typeof state.nonce !== 'string' || !spent.spend(state.nonce)) {
    refuse(request, 'this confirmation was already used: each answered form is good for one call');
  }
  return { kind: 'confirmed' };
}

/**
 * The one-time nonces of answered confirmations, kept as long as a sealed state lives (its expiry makes an older one
 * worthless anyway), so that a state replayed within that time is refused. Bounded: past `max` entries the oldest go,
 * which can only make a replay of that old state fail later by its expiry.
 */
export class SpentStates {
  readonly #spent = new Map<string, number>();
  constructor(
    private readonly now: () => number,
    private readonly max = 100_000,
  ) {}

  /** True the first time a nonce is spent, false after. */
  spend(nonce: string): boolean {
    const now = this.now();
    for (const [old, at] of this.#spent) {
      if (now - at < CONFIRMATION_TIMEOUT_MS && this.#spent.size < this.max) break;
      this.#spent.delete(old);
    }
    if (this.#spent.has(nonce)) return false;
    this.#spent.set(nonce, now);
    return true;
  }
}

/** The form: what will happen, and a field to type the id into. */
function form(request: ConfirmationRequest): ElicitRequestFormParams {
  return {
    mode: 'form',
    message: `${request.consequence}\n\nTo confirm, type the ${request.field}: ${request.id}`,
    requestedSchema: {
      type: 'object',
      properties: {
        [request.field]: { type: 'string', title: request.field, description: `Type ${request.id} to confirm` },
      },
      required: [request.field],
    },
  };
}

/** A 2025 session: the form goes to the client as elicitation/create, and the call waits for it (holding no place). */
async function elicit(ctx: ServerContext, request: ConfirmationRequest): Promise<FormAnswer> {
  try {
    const answer = await ctx.mcpReq.elicitInput(form(request), {
      signal: ctx.mcpReq.signal,
      timeout: CONFIRMATION_TIMEOUT_MS,
    });
    if (answer.action !== 'accept') return { action: answer.action };
    return { action: 'accept', typed: answer.content?.[request.field] };
  } catch (error) {
    if (error instanceof ProtocolError && error.code === ProtocolErrorCode.MethodNotFound)
      return { action: 'unavailable' };
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      refuse(request, `the confirmation form was not answered within ${CONFIRMATION_TIMEOUT_MS / 60_000} minutes`);
    }
    if (ctx.mcpReq.signal.aborted) refuse(request, 'the call was cancelled while the form was open');
    return refuse(request, `the confirmation form could not be shown (${(error as Error)?.message ?? String(error)})`);
  }
}

function formAnswer(ctx: ServerContext, field: string): FormAnswer {
  const view = inputResponse(ctx.mcpReq.inputResponses, FORM);
  if (view.kind !== 'elicit') return { action: 'missing' };
  if (view.action !== 'accept') return { action: view.action };
  return { action: 'accept', typed: view.content?.[field] };
}

/** The tool and its validated arguments, in a stable order: what a confirmation holds for. */
function digest(request: ConfirmationRequest): string {
  return process
    .getBuiltinModule('node:crypto')
    .createHash('sha256')
    .update(`${request.tool}\0${stableJson(request.args)}`)
    .digest('base64url');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
