import type { CompiledOperation } from '../catalogue/compile.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { CallFailure } from '../upstream/failure.js';
import type { ConfirmationChannel, Confirmed } from './confirmation.js';

/**
 * The confirmation stage as telemetry sees it (a span, the confirmations asked and answered), when telemetry is on and
 * the operation asks for one. Whether the user was asked in this request and whether it brought an answer depend on
 * the channel: a form (2025 elicitation) asks and is answered within the call; an input request (2026-07-28) asks in
 * the first call and is answered by its retry; the `confirm` argument answers, and its absence asks.
 */
export async function traceConfirmation(
  telemetry: Telemetry | undefined,
  operation: CompiledOperation,
  channel: ConfirmationChannel,
  confirmArgument: string | undefined,
  confirm: () => Promise<Confirmed>,
): Promise<Confirmed> {
  if (!telemetry || !operation.confirmation) return confirm();
  const span = telemetry.confirmation(channel.kind);
  const form = channel.kind === 'elicitation';
  const brought =
    channel.kind === 'argument'
      ? confirmArgument !== undefined
      : channel.kind === 'input-request' && channel.ctx.mcpReq.requestState() !== undefined;
  try {
    const confirmed = await confirm();
    span.end(confirmed.kind === 'ask' ? { asked: true } : { asked: form, answer: 'confirmed' });
    return confirmed;
  } catch (error) {
    const answered = (form || brought) && CallFailure.from(error).code === 'not_confirmed';
    span.end({ asked: form || !brought, ...(answered ? { answer: 'refused' as const } : {}) });
    throw error;
  }
}
