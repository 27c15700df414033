import * as z from 'zod';
import { LANGUAGE_CODES, SOURCE_CODES, translationIssues } from '../catalogue/translation-rules.js';
import { MAX_TEXT_LENGTH } from './chunking.js';
import { SUMMARY_LENGTHS } from './summary-prompt.js';

// The workflow tool's name and schemas, for its definition (workflow-tool.ts) and its run (workflow-run.ts).

export const WORKFLOW_TOOL_NAME = 'translate_and_summarize';

/** The schemas are built on first use, as the operations' are: start-up does not pay for them. */
let built: { input: ReturnType<typeof inputSchema>; output: ReturnType<typeof outputSchema> } | undefined;
export const workflowSchemas = () => (built ??= { input: inputSchema(), output: outputSchema() });

const inputSchema = () =>
  z
    .strictObject({
      text: z
        .string()
        .min(1)
        .max(MAX_TEXT_LENGTH)
        .refine((t) => t.trim() !== '', 'must not be blank')
        .describe('Span-tagged text stays untranslated'),
      target: z.enum(LANGUAGE_CODES).describe('Language of the translation and the summary'),
      source: z.enum(SOURCE_CODES).default('auto').describe('Source language, or auto to detect'),
      length: z.enum(SUMMARY_LENGTHS).default('medium').describe('short 1-2 sentences, medium 3-5, long a paragraph'),
      honorific: z.boolean().optional().describe('Polite forms (ko/ja targets)'),
      glossaryKey: z.string().optional().describe('Glossary ID'),
      summarize: z.boolean().default(true).describe('false: translation only'),
    })
    .superRefine((args, ctx) => {
      // The text is checked piece by piece, as each piece is translated; every other rule applies to the call.
      const { text: _, ...request } = args;
      for (const issue of translationIssues(request))
        ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
    });

const outputSchema = () =>
  z.object({
    translation: z.string().describe('The whole translation, pieces joined in order'),
    summary: z
      .string()
      .optional()
      .describe('Summary of the translation, in the target language; not with summarize false'),
    summaryParts: z
      .int()
      .optional()
      .describe(
        'Present when the translation outgrew one prompt: parts summarized first, the summary made from theirs',
      ),
    chunks: z.int().describe('Number of translation calls'),
    sourceLanguage: z.string().describe('Detected (srcLangType) or given source language; mixed when chunks differ'),
    sourceLanguages: z.array(z.string()).optional().describe("Each chunk's detected language, when they differ"),
    targetLanguage: z.string(),
    tokens: z
      .object({ input: z.int().optional(), output: z.int().optional() })
      .optional()
      .describe('Tokens of all the summary completions, summed'),
    stopReason: z
      .string()
      .optional()
      .describe(
        'length when any summary completion stopped at maxTokens, else how the last ended: end_token, stop_before',
      ),
  });
export type WorkflowOutput = z.infer<ReturnType<typeof outputSchema>>;
