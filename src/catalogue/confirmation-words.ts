/**
 * How the user confirms a destructive call (E11, E15), said in the tool's description so that an agent's first call
 * is not a certain refusal: a client that shows forms asks the user; one that shows none passes `confirm`, which the
 * agent may set once the user agreed, and a user who asked for the deletion in so many words has agreed. With
 * --no-confirm nothing waits: the listing leaves these words out (src/mcp/tool-registry.ts), as it leaves `confirm`.
 */
const LEAD = 'Asks the user (a form);';

export const confirmationWords = (argument: string) =>
  `${LEAD} with no form, pass confirm = ${argument} once the user agreed (an explicit request is agreement).`;

/** A description without the confirmation words. */
export function withoutConfirmationWords(description: string): string {
  const at = description.indexOf(` ${LEAD}`);
  return at === -1 ? description : description.slice(0, at);
}
