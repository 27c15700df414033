import * as z from 'zod';

/**
 * The member by which an answer of the sandbox (`--sandbox`) says that it is not what the real service would say:
 * the same name in every answer that carries it (translation, text generation), declared in their output schemas so
 * that an agent knows it before it sees one.
 */
export const SIMULATED_KEY = 'simulated';

const SIMULATED_WORDS =
  'Only in answers of the sandbox (the embedded simulator): what it simulated instead of the real service, which sends no such member';

export const simulatedMember = () => z.string().nullish().describe(SIMULATED_WORDS);
