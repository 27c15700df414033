/**
 * What a request costs even when its answer is lost: the operations billed per request (E12, per completion) or per
 * character (E3). A failure after the request may have reached the upstream says so, and so does a retry of one.
 * By operation id; the words take the number of attempts that may have been billed.
 */
export const BILLED_WORK: Readonly<Record<string, (attempts: number) => string>> = {
  E3: (n) =>
    n === 1
      ? 'The translation may have been billed (per character).'
      : `Each of the ${n} attempts may have been billed (per character).`,
  E12: (n) =>
    n === 1 ? 'A billed completion may have been made.' : `Up to ${n} billed completions may have been made.`,
};
