import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type InputRequiredResult,
  type RequestStateCodec,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ClientQuestion, ConfirmationRequest, Confirmed, Confirmer } from '../call/confirmation.js';
import { envName, flagName } from '../config/index.js';
import { CallFailure, nothingSent } from '../failures.js';
import {
  CONFIRMATION_TIMEOUT_MS,
  confirmationDigest,
  type ConfirmationState,
  type SpentStates,
} from './confirmation-state.js';

/** The key of the form in `inputRequests` / `inputResponses`. */
const FORM = 'confirmation';

/** What the calls of one server share for their confirmations. */
export interface ConfirmationOptions {
  /**
   * Whether this server may ask the client for forms (never over stateless 2025 HTTP: the answer could not come back).
   */
  elicitation: boolean;
  codec: RequestStateCodec<ConfirmationState>;
  /** The confirmations already answered in this process (each sealed state is good for one call). */
  spent: SpentStates;
  /** Who the calls are for when there is no session (stdio, or an HTTP client's address). */
  client?: string;
}

/**
 * How the user of this request can confirm a destructive call, by the form its client can show in its era:
 * - `input-request`: a 2026-07-28 client that shows forms gets one as an input request; its retry carries the answer
 *   and the state this server sealed over the tool and its arguments, so that any replica sharing the key can finish
 *   the call (tampered or expired state is refused by the SDK before this runs: -32602);
 * - `elicitation`: a 2025 client that shows forms gets the same form by elicitation/create on its session;
 * - `argument`: a client that shows no forms confirms with the `confirm` argument.
 */
export function confirmerFor(
  server: Server,
  ctx: ServerContext,
  options: ConfirmationOptions,
  profile: string | undefined,
): Confirmer {
  const modern = ctx.mcpReq.envelope !== undefined;
  const forms = options.elicitation && showsForms(modern ? clientCapabilities(ctx) : server.getClientCapabilities());
  if (!forms) return byArgument;
  if (!modern) return byElicitation(ctx);
  const { codec, spent } = options;
  return byInputRequest(ctx, { codec, spent, client: ctx.sessionId ?? options.client, profile });
}

/** The input request a confirmer asked for, as the pipeline hands it back: the SDK sends it to the client. */
export const inputRequestOf = (question: ClientQuestion): InputRequiredResult =>
  question as unknown as InputRequiredResult;

const asQuestion = (request: InputRequiredResult): ClientQuestion => request as unknown as ClientQuestion;

const CONFIRMED: Confirmed = { kind: 'confirmed' };

/** For clients that show no forms: the model passes the id as `confirm`, once the user agreed. */
export const byArgument: Confirmer = {
  channel: 'argument',
  asksWithinCall: false,
  bringsAnswer: (confirmArgument) => confirmArgument !== undefined,
  async confirm(request) {
    checkConfirmArgument(request);
    return CONFIRMED;
  },
};

/** A 2025 session: the form goes to the client as elicitation/create, and the call waits for it. */
function byElicitation(ctx: ServerContext): Confirmer {
  return {
    channel: 'elicitation',
    asksWithinCall: true,
    bringsAnswer: () => false,
    async confirm(request) {
      const answer = await elicit(ctx, request);
      // A host that declares forms but does not answer elicitation/create (-32601) shows none: `confirm` decides.
      if (answer.action === 'unavailable') checkConfirmArgument(request, 'its host shows no forms');
      else checkFormAnswer(request, answer);
      return CONFIRMED;
    },
  };
}

/** What a sealed state answers for, besides the tool and its arguments. */
interface Sealing {
  codec: RequestStateCodec<ConfirmationState>;
  /** Who asks: a sealed state answers only for the client it was asked for. */
  client: string | undefined;
  /** Whose keys the call would use: a state sealed for one credential profile confirms no call of another. */
  profile: string | undefined;
  /** The nonces of the states already answered in this process: each is good for one call. */
  spent: SpentStates;
}

/** 2026-07-28: the first call returns the form as an input request; the retry carries its answer and sealed state. */
function byInputRequest(ctx: ServerContext, sealing: Sealing): Confirmer {
  return {
    channel: 'input-request',
    asksWithinCall: false,
    bringsAnswer: () => ctx.mcpReq.requestState() !== undefined,
    confirm: (request) => askByInputRequest(ctx, sealing, request),
  };
}

/** Whether the client shows forms: MCP reads a bare `elicitation: {}` as form support. */
function showsForms(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/** A 2026-07-28 request carries the client's capabilities itself (a 2025 client declared them at initialize). */
function clientCapabilities(ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}

/** Ends a destructive call before a byte is sent, saying why and what the call would have done. */
function refuse(request: ConfirmationRequest, why: string): never {
  throw new CallFailure('not_confirmed', `${nothingSent(why)} (${request.consequence})`);
}

/** The `confirm` argument must be the id; anything else ends the call, saying how to confirm it. */
function checkConfirmArgument(request: ConfirmationRequest, why?: string): void {
  const { tool, field, id, confirm } = request;
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
  `with ${flagName('no-confirm')} (${envName('SVC_CONFIRM_DESTRUCTIVE')}=false), or use a client that declares no forms, ` +
  'which then confirms with the confirm argument';

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

async function askByInputRequest(
  ctx: ServerContext,
  sealing: Sealing,
  request: ConfirmationRequest,
): Promise<Confirmed> {
  const { codec, client, profile, spent } = sealing;
  const state = ctx.mcpReq.requestState<ConfirmationState>();
  const digest = confirmationDigest(request);
  if (state === undefined) {
    const nonce = globalThis.crypto.randomUUID();
    const asked = inputRequired({
      inputRequests: { [FORM]: inputRequired.elicit(form(request)) },
      requestState: await codec.mint({
        tool: request.tool,
        digest,
        client,
        ...(profile !== undefined ? { profile } : {}),
        nonce,
      }),
    });
    return { kind: 'ask', question: asQuestion(asked) };
  }
  if (typeof state !== 'object' || state === null || state.tool !== request.tool || state.digest !== digest) {
    refuse(request, 'the confirmation answered was asked for another call (other tool or arguments)');
  }
  if (state.client !== client) refuse(request, 'the confirmation answered was asked by another client');
  if (state.profile !== profile)
    refuse(request, 'the confirmation answered was asked under another credential profile');
  checkFormAnswer(request, formAnswer(ctx, request.field));
  if (typeof state.nonce !== 'string' || !spent.spend(state.nonce)) {
    refuse(request, 'this confirmation was already used: each answered form is good for one call');
  }
  return CONFIRMED;
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

/** The form by elicitation/create: the call waits for the answer (holding no place), or for the form's timeout. */
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
