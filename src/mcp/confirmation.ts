import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { AnyOperation } from '../catalogue/types.js';
import { ToolFailure } from '../gateway/errors.js';

/** How a call can reach the user: a form, when the client shows them (never over stateless HTTP). */
export interface ConfirmationChannel {
  elicit?(params: ElicitRequestFormParams): Promise<ElicitResult>;
}

/**
 * The gate in front of a destructive call (E11, E15): the user types the id of what is destroyed into a form, or,
 * when the client shows no forms, the model passes the same id as `confirm` after asking the user. Anything else
 * ends the call before a byte is sent.
 */
export async function confirmDestructiveCall(
  op: AnyOperation,
  args: Record<string, unknown>,
  confirm: string | undefined,
  channel: ConfirmationChannel,
): Promise<void> {
  const confirmation = op.confirmation;
  if (!confirmation) return;
  const field = confirmation.argument;
  const id = String(args[field]);
  const consequence = confirmation.consequence(args);
  const refuse = (why: string) => {
    throw new ToolFailure('not_confirmed', `${why}. Nothing was sent. (${consequence})`);
  };

  if (!channel.elicit) {
    if (confirm === undefined) {
      refuse(`${op.name} needs confirmation: tell the user what will happen, and only if they agree call again with confirm set to the ${field} ("${id}")`);
    }
    if (confirm !== id) refuse(`confirm must equal the ${field} ("${id}"), got "${confirm}"`);
    return;
  }

  let answer: ElicitResult;
  try {
    answer = await channel.elicit({
      mode: 'form',
      message: `${consequence}\n\nTo confirm, type the ${field}: ${id}`,
      requestedSchema: {
        type: 'object',
        properties: { [field]: { type: 'string', title: field, description: `Type ${id} to confirm` } },
        required: [field],
      },
    });
  } catch (error) {
    return refuse(`the confirmation form could not be shown (${(error as Error)?.message ?? String(error)})`);
  }
  if (answer.action === 'decline') refuse('the user declined');
  if (answer.action === 'cancel') refuse('the user cancelled the confirmation');
  const typed = answer.content?.[field];
  if (typed !== id) refuse(`the user typed ${JSON.stringify(typed ?? '')}, not the ${field} "${id}"`);
}
