import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { LANGUAGE_CODES, LANGUAGE_NAMES, SOURCE_CODES, translationIssues } from '../catalogue/translation-rules.js';
import { createCompletion } from '../catalogue/textgen.js';
import { translateText } from '../catalogue/translation.js';
import { ToolFailure, type CallMeta } from '../gateway/errors.js';
import { execute, type ExecutorDeps } from '../gateway/executor.js';
import { formatIssues } from '../gateway/validation.js';
import { chunkText } from './chunking.js';
import { toJsonSchema } from './json-schema.js';
import { SUMMARY_LENGTHS, generatedPart, summaryCue, summaryParameters, summaryPrompt } from './summary-prompt.js';
import { jsonResult, runToolCall, type CallFrame } from './tool-call.js';
import type { ToolExtra, ToolHandler } from './tool-registry.js';

export const WORKFLOW_TOOL_NAME = 'translate_and_summarize';

/** Ten translation calls at most: enough for a long article, bounded for the upstream quota. */
const MAX_WORKFLOW_TEXT = 50_000;

const input = z
  .strictObject({
    text: z
      .string()
      .min(1)
      .max(MAX_WORKFLOW_TEXT)
      .refine((t) => t.trim() !== '', 'must not be blank')
      .describe('Span-tagged text stays untranslated'),
    target: z.enum(LANGUAGE_CODES).describe('Language of the translation and the summary'),
    source: z.enum(SOURCE_CODES).default('auto').describe('Source language, or auto to detect'),
    length: z
      .enum(SUMMARY_LENGTHS)
      .default('medium')
      .describe('short 1-2 sentences, medium 3-5, long a paragraph'),
    honorific: z.boolean().optional().describe('Polite forms (ko/ja targets)'),
    glossaryKey: z.string().min(1).optional().describe('Glossary ID'),
  })
  .superRefine((args, ctx) => {
    // The text is checked piece by piece, as each piece is translated; every other rule applies to the call.
    const { text: _, ...request } = args;
    for (const issue of translationIssues(request)) ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
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

/** The tool's MCP definition. Pure. */
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
export function translateAndSummarizeTool(definition: Tool, deps: ExecutorDeps, frame: CallFrame): ToolHandler {
  return {
    definition,
    facts: { name: WORKFLOW_TOOL_NAME, readOnly: true, services: [translateText.service, createCompletion.service] },
    async call(rawArgs, extra) {
      let step = 'check arguments';
      const failedAt = (f: ToolFailure) => `${WORKFLOW_TOOL_NAME} failed at step "${step}" [${f.code}]: ${f.message}`;
      const meta: CallMeta = { attempts: 0, delivery: 'no', durationMs: 0 };
      const started = deps.now();
      /** Runs one step through the executor, adding what it did on the wire to the call's meta. */
      const run = async <T>(work: Promise<{ meta: CallMeta } & T>): Promise<T> => {
        try {
          const done = await work;
          add(done.meta);
          return done;
        } catch (error) {
          if (error instanceof ToolFailure && error.meta) add(error.meta);
          throw ToolFailure.from(error, { ...meta, durationMs: deps.now() - started });
        }
      };
      const add = (step: CallMeta) => {
        meta.attempts += step.attempts;
        meta.delivery = step.delivery;
        if (step.status !== undefined) meta.status = step.status;
      };

      return runToolCall(
        frame,
        WORKFLOW_TOOL_NAME,
        async () => {
          const parsed = input.safeParse(rawArgs ?? {});
          if (!parsed.success) throw new ToolFailure('invalid_input', formatIssues(parsed.error.issues));
          const args = parsed.data;
          const chunks = chunkText(args.text.trim(), { source: args.source, target: args.target });
          const progress = progressReporter(extra, chunks.length + 1);

          const pieces: string[] = [];
          let detected: string | undefined;
          for (const [i, chunk] of chunks.entries()) {
            step = chunks.length === 1 ? 'translate' : `translate chunk ${i + 1} of ${chunks.length}`;
            stopIfCancelled(extra.signal);
            await progress(i, `translating chunk ${i + 1} of ${chunks.length}`);
            const text = chunk.trim();
            const trailing = chunk.slice(chunk.trimEnd().length);
            const { answer } = await run(
              execute(
                translateText,
                { source: args.source, target: args.target, text, honorific: args.honorific, glossaryKey: args.glossaryKey },
                deps,
                { signal: extra.signal },
              ),
            );
            const { translatedText, srcLangType } = answer.value.message.result;
            detected ??= srcLangType;
            pieces.push(translatedText + trailing);
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
          const { answer } = await run(
            execute(createCompletion, { ...summaryParameters(args.length), text: prompt, includeAiFilters: false }, deps, {
              signal: extra.signal,
            }),
          );
          const completion = answer.value.result;
          if (completion?.text === undefined) {
            throw new ToolFailure('unexpected_response', 'the completion answer has no result.text');
          }

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
          meta.durationMs = deps.now() - started;
          return { result: jsonResult(output, frame.secrets), meta };
        },
        failedAt,
      );
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

/** A token count: the service's length field, else the length of its token list; undefined when neither is given. */
function count(length: number | undefined, tokens: string[] | undefined): number | undefined {
  if (length !== undefined && Number.isInteger(length) && length >= 0) return length;
  return tokens?.length;
}

