import {
  SdkError,
  SdkErrorCode,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { checkConfirmArgument, checkFormAnswer, refuse, type FormAnswer } from '../call/confirmation-checks.js';
import type { CallHooks, ConfirmationRequest } from '../call/pipeline.js';

/** What the sealed `requestState` of a confirmation proves: the form was asked for this tool with these arguments. */
export interface ConfirmationState {
  tool: string;
  digest: string;
}

/** A user typing an id into a form can take a while; a form left open longer ends the call. */
const CONFIRMATION_TIMEOUT_MS = 5 * 60_000;

/** The key of the form in `inputRequests` / `inputResponses`. */
const FORM = 'confirmation';

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

/** Whether the client shows forms: MCP reads a bare `elicitation: {}` as form support. */
export function showsForms(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/** How the client of one request can be asked: by an input request (2026-07-28), by elicitation (2025), or not. */
export type FormChannel = 'input-request' | 'elicitation' | 'none';

/**
 * How the user of one request confirms a destructive call:
 * - a 2026-07-28 client that shows forms gets one as an input request; its retry carries the answer and the state
 *   this server sealed over the tool and its arguments, so that any replica sharing the key can finish the call
 *   (tampered or expired state is refused by the SDK before this runs: -32602; state of another call here);
 * - a 2025 client that shows forms gets the same form by elicitation/create on its session, as before;
 * - a client that shows no forms confirms with the `confirm` argument.
 */
export function confirmHook(
  ctx: ServerContext,
  codec: RequestStateCodec<ConfirmationState>,
  channel: FormChannel,
): CallHooks['confirm'] {
  return async (request) => {
    if (channel === 'none') {
      checkConfirmArgument(request);
      return { kind: 'confirmed' };
    }
    if (channel === 'elicitation') {
      checkFormAnswer(request, await elicit(ctx, request));
      return { kind: 'confirmed' };
    }
    const state = ctx.mcpReq.requestState<ConfirmationState>();
    if (state !== undefined) {
      if (
        typeof state !== 'object' ||
        state === null ||
        state.tool !== request.tool ||
        state.digest !== digest(request)
      ) {
        refuse(request, 'the confirmation answered was asked for another call (other tool or arguments)');
      }
      checkFormAnswer(request, formAnswer(ctx, request.field));
      return { kind: 'confirmed' };
    }
    const pending = inputRequired({
      inputRequests: { [FORM]: inputRequired.elicit(form(request)) },
      requestState: await codec.mint({ tool: request.tool, digest: digest(request) }),
    });
    return { kind: 'ask', pending };
  };
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
