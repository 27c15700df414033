import type { Tool } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { LANGUAGE_CODES, SOURCE_CODES, translationIssues } from '../catalogue/translation-rules.js';
import { createCompletion } from '../catalogue/textgen.js';
import { translateText } from '../catalogue/translation.js';
import type { CallFrame } from '../gateway/pipeline.js';
import { MAX_TEXT_LENGTH } from './chunking.js';
import { serviceIcons } from './icons.js';
import { toJsonSchema } from './json-schema.js';
import { SUMMARY_LENGTHS } from './summary-prompt.js';
import type { ToolHandler } from './tool-registry.js';

export const WORKFLOW_TOOL_NAME = 'translate_and_summarize';

/** The schemas are built on first use, as the operations' are: start-up does not pay for them. */
let built: { input: ReturnType<typeof inputSchema>; output: ReturnType<typeof outputSchema> } | undefined;
const schemas = () => (built ??= { input: inputSchema(), output: outputSchema() });
/** The tool's schemas, for its run (workflow-run.ts). */
export const workflowSchemas = schemas;

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
      glossaryKey: z.string().min(1).optional().describe('Glossary ID'),
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
    summary: z.string().describe('Summary of the translation, in the target language'),
    chunks: z.int().describe('Number of translation calls'),
    sourceLanguage: z.string().describe('Detected (srcLangType) or given source language'),
    targetLanguage: z.string(),
    tokens: z
      .object({ input: z.int().optional(), output: z.int().optional() })
      .describe('Tokens of the summary completion'),
    stopReason: z.string().optional().describe('Why the summary ended: length, end_token or stop_before'),
  });
export type WorkflowOutput = z.infer<ReturnType<typeof outputSchema>>;

/** The tool's MCP definition. Pure. */
export const workflowDefinition = (): Tool => ({
  name: WORKFLOW_TOOL_NAME,
  title: 'Translate and summarize text',
  description:
    'Translates text of any length (calls of at most 5000 chars, split at sentence boundaries), then summarizes ' +
    'it in the target language. One deadline for all calls; reports progress; cancellable.',
  inputSchema: toJsonSchema(schemas().input, 'input') as Tool['inputSchema'],
  outputSchema: toJsonSchema(schemas().output, 'output') as Tool['outputSchema'],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  icons: serviceIcons('translation'),
});

/** The tool: its run (workflow-run.ts) is loaded with its first call, so that start-up does not pay for it. */
export function translateAndSummarizeTool(definition: Tool, frame: CallFrame): ToolHandler {
  return {
    definition,
    facts: { name: WORKFLOW_TOOL_NAME, readOnly: true, services: [translateText.service, createCompletion.service] },
    call: async (rawArgs, hooks) => (await import('./workflow-run.js')).runWorkflow(rawArgs, hooks, frame),
  };
}
