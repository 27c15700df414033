import { z } from 'zod';
import type { Operation } from './types.js';

export const AI_FILTERS = [
  { groupName: 'curse', name: 'discrimination', meaning: 'Abasement, discrimination or hate speech' },
  { groupName: 'curse', name: 'insult', meaning: 'Profanity' },
  { groupName: 'unsafeContents', name: 'sexualHarassment', meaning: 'Sexual harassment or obscenity' },
] as const;

export const createCompletion: Operation = {
  id: 'E12',
  name: 'textgen_create_completion',
  title: 'Generate a text completion',
  description:
    'Continues a prompt with a text-generation model. result.text holds prompt plus output; stopReason is length, end_token or stop_before. ' +
    'aiFilters scores: 0 high, 1 medium, 2 low.',
  service: 'textgen',
  method: 'POST',
  path: '/testapp/v1/completions/{model}',
  auth: 'studio',
  envelope: 'studio-status',
  input: z.strictObject({
    model: z.enum(['LK-D2']).default('LK-D2'),
    text: z.string().min(1).describe('Prompt'),
    maxTokens: z.int().min(1).max(2048).default(100).describe('Maximum tokens to generate, 1-2048'),
    temperature: z.number().gt(0).max(1).default(0.5).describe('Randomness, 0 < t <= 1; higher is more random'),
    topK: z.int().min(0).max(128).default(0).describe('Sample only from the top K tokens, 0-128 (0: no limit)'),
    topP: z.number().gt(0).max(1).default(0.8).describe('Nucleus sampling: tokens within cumulative probability P, 0 < P <= 1'),
    repeatPenalty: z.number().gt(0).max(10).default(5).describe('Penalty for repeating tokens, 0 < p <= 10'),
    stopBefore: z.array(z.string().min(1)).default([]).describe('Stop before any of these'),
    start: z.string().optional().describe('Appended after the input'),
    restart: z.string().optional().describe('Appended after the output'),
    includeTokens: z.boolean().optional().describe('Include input and output tokens in the answer'),
    includeAiFilters: z.boolean().default(true).describe('Include AI filter scores (curse, unsafe contents)'),
  }),
  output: z.looseObject({
    status: z.looseObject({ code: z.string(), message: z.string().optional() }).optional(),
    result: z
      .looseObject({
        text: z.string().optional(),
        stopReason: z.string().optional(),
        inputLength: z.number().optional(),
        outputLength: z.number().optional(),
        inputTokens: z.array(z.string()).optional(),
        outputTokens: z.array(z.string()).optional(),
        aiFilters: z
          .array(z.looseObject({ groupName: z.string(), name: z.string(), score: z.string() }))
          .optional(),
      })
      .optional(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
};
