import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { LANGUAGE_CODES, LANGUAGE_NAMES, SOURCE_CODES, isSupportedPair, targetsOf } from '../catalogue/languages.js';
import { createCompletion } from '../catalogue/textgen.js';
import { translateText } from '../catalogue/translation.js';
import { ToolFailure } from '../gateway/errors.js';
import { execute, type ExecutorDeps } from '../gateway/executor.js';
import type { Outcome } from '../gateway/response.js';
import { formatIssues } from '../gateway/validation.js';
import { chunkText } from './chunking.js';
import { toJsonSchema } from './json-schema.js';
import { SUMMARY_LENGTHS, generatedPart, summaryCue, summaryParameters, summaryPrompt } from './summary-prompt.js';
import { jsonResult, runToolCall, type CallLog } from './tool-call.js';
import type { ToolExtra, ToolHandler } from './tool-registry.js';

export const WORKFLOW_TOOL_NAME = 'translate_and_summarize';

/** Ten translation calls at most: enough for a long article, bounded for the upstream quota. */
export const MAX_WORKFLOW_TEXT = 50_000;

const input = z
  .strictObject({
    text: z
      .string()
      .min(1)
      .max(MAX_WORKFLOW_TEXT)
      .refine((t) => t.trim() !== '', 'must not be blank')
      .describe('Span-tagged text stays untranslated'),
    target: z.enum(LANGUAGE_CODES),
    source: z.enum(SOURCE_CODES).default('auto').describe('Source language, or auto to detect'),
    length: z
      .enum(SUMMARY_LENGTHS)
      .default('medium')
      .describe('short 1-2 sentences, medium 3-5, long a paragraph'),
    honorific: z.boolean().optional().describe('Polite forms (ko/ja targets)'),
    glossaryKey: z.string().min(1).optional(),
  })
  .superRefine((args, ctx) => {
    if (args.source !== 'auto' && !isSupportedPair(args.source, args.target)) {
      ctx.addIssue({
        code: 'custom',
        path: ['target'],
        message: `${args.source} -> ${args.target} is not a supported direction; targets of ${args.source}: ${targetsOf(args.source).join(', ')}`,
      });
    }
  });

const output = z.object({
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
type WorkflowOutput = z.infer<typeof output>;

/** The tool's MCP definition. Pure; computed once per build (see src/mcp/tool-definitions.ts). */
export const workflowDefinition = (): Tool => ({
  name: WORKFLOW_TOOL_NAME,
  title: 'Translate and summarize text',
  description:
    'Translates text of any length (calls of at most 5000 chars, split at sentence boundaries), then summarizes ' +
    'it in the target language. Reports progress; cancellable.',
  inputSchema: toJsonSchema(input, 'input') as Tool['inputSchema'],
  outputSchema: toJsonSchema(output, 'output') as Tool['outputSchema'],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
});

/**
 * The translate-and-summarize flow as one tool call, for pipelines without an orchestrating model. Every step
 * goes through the one executor (validation, auth, retries, timeouts), with the client's cancellation signal.
 */
export function translateAndSummarizeTool(
  definition: Tool,
  deps: ExecutorDeps,
  secrets: readonly string[],
  log: CallLog,
): ToolHandler {
  const ctx = { tool: WORKFLOW_TOOL_NAME, now: deps.now, secrets, log };
  return {
    definition,
    async call(rawArgs, extra) {
      let step = 'check arguments';
      const failedAt = (f: ToolFailure) => `${WORKFLOW_TOOL_NAME} failed at step "${step}" [${f.code}]: ${f.message}`;
      return runToolCall(ctx, async (record) => {
        const parsed = input.safeParse(rawArgs ?? {});
        if (!parsed.success) throw new ToolFailure('invalid_input', formatIssues(parsed.error.issues));
        const args = parsed.data;
        const chunks = chunkText(args.text.trim());
        const total = chunks.length + 1;
        const progress = progressReporter(extra, total);

        const pieces: string[] = [];
        let detected: string | undefined;
        for (const [i, chunk] of chunks.entries()) {
          step = chunks.length === 1 ? 'translate' : `translate chunk ${i + 1} of ${chunks.length}`;
          stopIfCancelled(extra.signal);
          await progress(i, `translating chunk ${i + 1} of ${chunks.length}`);
          const text = chunk.trim();
          const trailing = chunk.slice(chunk.trimEnd().length);
          const answer = translation(
            await execute(
              translateText,
              { source: args.source, target: args.target, text, honorific: args.honorific, glossaryKey: args.glossaryKey },
              deps,
              extra.signal,
              record,
            ),
          );
          detected ??= answer.srcLangType;
          pieces.push(answer.translatedText + trailing);
        }
        const translated = pieces.join('').trim();

        step = 'summarize';
        stopIfCancelled(extra.signal);
        // Each step is reported when it starts (progress = steps done so far): a notification sent right before the
        // result can reach the client in the same read as the result, after which the SDK client has already
        // dropped the progress handler.
        await progress(chunks.length, 'summarizing');
        const language = LANGUAGE_NAMES[args.target];
        const prompt = summaryPrompt(translated, language, args.length);
        const completion = completionOf(
          await execute(
            createCompletion,
            { ...summaryParameters(args.length), text: prompt, includeAiFilters: false },
            deps,
            extra.signal,
            record,
          ),
        );

        const output: WorkflowOutput = {
          translation: translated,
          summary: generatedPart(completion.text, prompt, summaryCue(language)),
          chunks: chunks.length,
          sourceLanguage: detected ?? args.source,
          targetLanguage: args.target,
          tokens: {
            input: count(completion.inputLength, completion.inputTokens),
            output: count(completion.outputLength, completion.outputTokens),
          },
          stopReason: completion.stopReason,
        };
        return jsonResult(output, secrets);
      }, failedAt);
    },
  };
}

/** notifications/progress after each step, only when the request asked for them (a progressToken in _meta). */
function progressReporter(extra: ToolExtra, total: number) {
  const progressToken = extra._meta?.progressToken;
  return async (progress: number, message: string): Promise<void> => {
    if (progressToken === undefined) return;
    try {
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total, message } });
    } catch {
      // A lost progress notification must not fail the flow.
    }
  };
}

function stopIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new ToolFailure('cancelled', 'the call was cancelled by the client; no further requests were sent');
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `message.result` of E3 (its shape was checked by the executor against the operation's output schema). */
function translation(outcome: Outcome): { translatedText: string; srcLangType?: string } {
  const result = outcome.kind === 'json' && isObject(outcome.value.message) ? outcome.value.message.result : undefined;
  if (!isObject(result) || typeof result.translatedText !== 'string') {
    throw new ToolFailure('unexpected_response', 'the translation answer has no message.result.translatedText');
  }
  return {
    translatedText: result.translatedText,
    srcLangType: typeof result.srcLangType === 'string' ? result.srcLangType : undefined,
  };
}

interface Completion {
  text: string;
  stopReason?: string;
  inputLength?: unknown;
  outputLength?: unknown;
  inputTokens?: unknown;
  outputTokens?: unknown;
}

/** `result` of E12. */
function completionOf(outcome: Outcome): Completion {
  const result = outcome.kind === 'json' ? outcome.value.result : undefined;
  if (!isObject(result) || typeof result.text !== 'string') {
    throw new ToolFailure('unexpected_response', 'the completion answer has no result.text');
  }
  return { ...result, text: result.text, stopReason: typeof result.stopReason === 'string' ? result.stopReason : undefined };
}

/** A token count: the service's length field, else the length of its token list; undefined when neither is given. */
function count(length: unknown, tokens: unknown): number | undefined {
  if (typeof length === 'number' && Number.isInteger(length) && length >= 0) return length;
  return Array.isArray(tokens) ? tokens.length : undefined;
}

