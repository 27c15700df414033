import * as z from 'zod';
import { list, maybeArray, maybeInteger, maybeString } from './answers.js';
import { SERVER_LIMITS, pathSegment } from './fields.js';
import { SIMULATED_KEY, simulatedMember } from './simulated.js';
import { defineOperation } from './types.js';

/** The model of the spec's sample (E12's path): the default of `model`. */
export const TEXTGEN_MODEL = 'LK-D2';

export const AI_FILTERS = [
  { groupName: 'curse', name: 'discrimination', meaning: 'Abasement, discrimination or hate speech' },
  { groupName: 'curse', name: 'insult', meaning: 'Profanity' },
  { groupName: 'unsafeContents', name: 'sexualHarassment', meaning: 'Sexual harassment or obscenity' },
] as const;

/** An AI filter's `score`: the degree to which the text corresponds to the category (a string). */
export const AI_FILTER_SCORES = [
  { score: '0', degree: 'high' },
  { score: '1', degree: 'medium' },
  { score: '2', degree: 'low' },
] as const;
export type AiFilterScore = (typeof AI_FILTER_SCORES)[number]['score'];

/** Which way a score points, where the score is: a lower score is a stronger match. */
const AI_FILTER_SCORE_WORDS =
  `${AI_FILTER_SCORES.map((s) => `${s.score} ${s.degree}`).join(', ')} correspondence to the category: ` +
  '0 = strongest match: flag it';

export const createCompletion = defineOperation({
  id: 'E12',
  name: 'textgen_create_completion',
  title: 'Generate a text completion',
  description: 'Generates a completion of a prompt with a text-generation model; result.text starts with the prompt.',
  service: 'textgen',
  method: 'POST',
  path: '/testapp/v1/completions/{model}',
  auth: 'studio',
  envelope: 'studio-status',
  input: () =>
    z.strictObject({
      // The spec's sample uses LK-D2 and names no other model; any name is sent, and the service decides.
      model: pathSegment(`The spec names only ${TEXTGEN_MODEL}`).default(TEXTGEN_MODEL),
      // The spec sets no length: these bounds are this server's (docs/tools.md, "Server limits").
      text: z.string().max(SERVER_LIMITS.promptChars).describe("Prompt; max is this server's"),
      maxTokens: z.int().min(1).max(2048).default(100).describe('Max output tokens'),
      temperature: z.number().gt(0).max(1).default(0.5).describe('Randomness; least random: a small value, e.g. 0.01'),
      // The spec: "only tokens within the top K by probability are used", 0 the default; top 0 would leave none.
      topK: z.int().min(0).max(128).default(0).describe('Top K tokens only; 0: spec unclear, likely no cut'),
      topP: z.number().gt(0).max(1).default(0.8),
      repeatPenalty: z.number().gt(0).max(10).default(5),
      stopBefore: z
        .array(z.string().max(SERVER_LIMITS.stopSequenceChars))
        .max(SERVER_LIMITS.stopSequences)
        .default([])
        .describe("Stop before any of these; caps are this server's"),
      start: z.string().optional().describe('Appended after the input'),
      restart: z.string().optional().describe('Appended after the output'),
      includeTokens: z.boolean().optional(),
      includeAiFilters: z.boolean().default(true),
    }),
  output: () =>
    z.looseObject({
      // The spec writes the code as a String ('20000'); a number is taken as well.
      status: z.looseObject({ code: z.union([z.string(), z.number()]), message: maybeString() }),
      result: z.looseObject({
        text: maybeString().describe('Prompt plus generated text'),
        stopReason: maybeString().describe('length, end_token or stop_before'),
        inputLength: maybeInteger(),
        outputLength: maybeInteger(),
        inputTokens: maybeArray(z.string()),
        outputTokens: maybeArray(z.string()),
        // The spec types probs as a Float and describes one per generated token: either is taken.
        probs: z
          .union([z.number(), list(z.number())])
          .nullish()
          .describe('Probability of each generated token being selected'),
        [SIMULATED_KEY]: simulatedMember(),
        aiFilters: maybeArray(
          z.looseObject({
            groupName: maybeString(),
            name: maybeString(),
            score: maybeString().describe(AI_FILTER_SCORE_WORDS),
          }),
        ),
      }),
    }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
});
