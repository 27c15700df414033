import type { CompiledOperation } from '../catalogue/compile.js';

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
  /** The `confirm` argument, as the call brought it. */
  confirm: string | undefined;
}

declare const unopened: unique symbol;

/**
 * A question for the client, made by the MCP surface and handed back to it as it is: the pipeline never opens it.
 * After the user's answer the client calls again.
 */
export interface ClientQuestion {
  readonly [unopened]: true;
}

/** Go on, or end the call with a question for the client. A refusal is thrown (a not_confirmed CallFailure). */
export type Confirmed = { kind: 'confirmed' } | { kind: 'ask'; question: ClientQuestion };

/**
 * How the user of one call is asked to confirm it: the MCP surface makes one per call, by what its client can show
 * in its era (`mcp/confirmation.ts`); the pipeline decides whether a call needs it.
 */
export interface Confirmer {
  /** The way the user is asked, as telemetry names it (`argument`, `elicitation`, `input-request`). */
  readonly channel: string;
  /** The user is asked and answers within this one request (a form the call waits for). */
  readonly asksWithinCall: boolean;
  /** Whether this request brings the answer to an earlier question (for telemetry: it can be refused as answered). */
  bringsAnswer(confirmArgument: string | undefined): boolean;
  confirm(request: ConfirmationRequest): Promise<Confirmed>;
}

/**
 * The confirmation stage: no request leaves before the user of a destructive call agreed, by the way its client has. A
 * call that needs none (not destructive) passes.
 */
export async function confirm(
  operation: CompiledOperation,
  args: Record<string, unknown>,
  confirmArgument: string | undefined,
  confirmer: Confirmer,
): Promise<Confirmed> {
  const asked = operation.confirmation;
  if (!asked) return { kind: 'confirmed' };
  return confirmer.confirm({
    tool: operation.name,
    field: asked.field,
    id: asked.id(args),
    consequence: asked.consequence(args),
    args,
    confirm: confirmArgument,
  });
}
