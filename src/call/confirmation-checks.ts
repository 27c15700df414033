import type { ConfirmationRequest } from './pipeline.js';
import { CallFailure } from '../upstream/failure.js';

/** Ends a destructive call before a byte is sent, saying why and what the call would have done. */
export function refuse(request: ConfirmationRequest, why: string): never {
  throw new CallFailure('not_confirmed', `${why}. Nothing was sent. (${request.consequence})`);
}

/**
 * For clients that show no forms: the model passes the id as `confirm`, once the user agreed. Anything else ends
 * the call, saying how to confirm it.
 */
export function checkConfirmArgument(request: ConfirmationRequest): void {
  const { tool, field, id, confirm } = request;
  if (confirm === undefined) {
    refuse(
      request,
      `${tool} needs confirmation: tell the user what will happen, and only if they agree call again with confirm set to the ${field} ("${id}")`,
    );
  }
  if (confirm !== id) refuse(request, `confirm must equal the ${field} ("${id}"), got "${confirm}"`);
}

/** What the user did with the confirmation form. */
export type FormAnswer =
  { action: 'accept'; typed: unknown } | { action: 'decline' } | { action: 'cancel' } | { action: 'missing' };

/** The form's answer: the user must have accepted and typed the id exactly. */
export function checkFormAnswer(request: ConfirmationRequest, answer: FormAnswer): void {
  if (answer.action === 'decline') refuse(request, 'the user declined');
  if (answer.action === 'cancel') refuse(request, 'the user cancelled the confirmation');
  if (answer.action === 'missing') refuse(request, 'the confirmation form came back without an answer');
  const typed = answer.typed;
  if (typed !== request.id)
    refuse(request, `the user typed ${JSON.stringify(typed ?? '')}, not the ${request.field} "${request.id}"`);
}
