import { createCompletion } from '../catalogue/textgen.js';
import { LANGUAGE_NAMES } from '../catalogue/translation-rules.js';
import { translateText } from '../catalogue/translation.js';
import { CallFailure, abortedFailure, type CallMeta } from '../upstream/failure.js';
import { execute } from '../call/attempts.js';
import { runCall, type CallFrame, type Reply, type ToolOutcome } from '../call/pipeline.js';
import { shortenedNote } from '../call/result-size.js';
import { formatIssues } from '../call/validation.js';
import { chunkText } from './chunking.js';
import { generatedPart, summaryCue, summaryParameters, summaryPrompt } from './summary-prompt.js';
import type { ToolHooks } from './tool-registry.js';
import { WORKFLOW_TOOL_NAME, workflowSchemas, type WorkflowOutput } from './workflow-schema.js';

/**
 * The translate-and-summarize flow as one tool call, for pipelines without an orchestrating model. Every step
 * goes through the one executor (validation, auth, retries, timeouts), with the client's cancellation signal.
 */
export async function runWorkflow(
  rawArgs: Record<string, unknown> | undefined,
  hooks: ToolHooks,
  frame: CallFrame,
): Promise<ToolOutcome> {
  const { deps } = frame;
  const schemas = workflowSchemas;

  let step = 'check arguments';
  const failedAt = (f: CallFailure) => `${WORKFLOW_TOOL_NAME} failed at step "${step}" [${f.code}]: ${f.message}`;
  const meta: CallMeta = { attempts: 0, delivery: 'no', durationMs: 0 };
  const started = deps.now();
  // One deadline for the whole flow: each step gets what is left of it (and never more than SVC_TIMEOUT_MS).
  const deadline = { at: started + deps.config.limits.workflowTimeoutMs, setting: 'SVC_WORKFLOW_TIMEOUT_MS' };
  const left = () => `${Math.max(0, Math.ceil((deadline.at - deps.now()) / 1000))} s left`;
  /** Runs one step through the executor, adding what it did on the wire to the call's meta. */
  const run = async <T>(work: Promise<{ meta: CallMeta } & T>): Promise<T> => {
    try {
      const done = await work;
      add(done.meta);
      return done;
    } catch (error) {
      if (error instanceof CallFailure && error.meta) add(error.meta);
      throw CallFailure.from(error, { ...meta, durationMs: deps.now() - started });
    }
  };
  const add = (step: CallMeta) => {
    meta.attempts += step.attempts;
    meta.delivery = step.delivery;
    if (step.status !== undefined) meta.status = step.status;
  };

  return runCall(
    frame,
    WORKFLOW_TOOL_NAME,
    hooks,
    async (signal, admit) => {
      const parsed = schemas().input.safeParse(rawArgs ?? {});
      if (!parsed.success) throw new CallFailure('invalid_input', formatIssues(parsed.error.issues));
      const args = parsed.data;
      const source = args.text.trim();
      const chunks = chunkText(source, { source: args.source, target: args.target });
      const total = chunks.length + 1;
      const progress = (done: number, message: string) => hooks.progress(done, total, message);
      await admit(signal, deadline);

      const pieces: string[] = [];
      let detected: string | undefined;
      for (const [i, chunk] of chunks.entries()) {
        step = chunks.length === 1 ? 'translate' : `translate chunk ${i + 1} of ${chunks.length}`;
        stopIfCancelled(signal);
        await progress(i, `translating chunk ${i + 1} of ${chunks.length} (${left()})`);
        const text = chunk.trim();
        const trailing = chunk.slice(chunk.trimEnd().length);
        const { answer } = await run(
          execute(
            translateText,
            {
              source: args.source,
              target: args.target,
              text,
              honorific: args.honorific,
              glossaryKey: args.glossaryKey,
            },
            deps,
            { signal, deadline, note: hooks.note },
          ),
        );
        const { translatedText, srcLangType } = answer.value.message.result;
        detected ??= srcLangType ?? undefined;
        pieces.push(translatedText + trailing);
      }
      const translated = pieces.join('').trim();

      step = 'summarize';
      stopIfCancelled(signal);
      // Each step is reported when it starts (progress = steps done so far): a notification sent right before the
      // result can reach the client in the same read as the result, after which the SDK client has already
      // dropped the progress handler.
      await progress(chunks.length, `summarizing (${left()})`);
      const language = LANGUAGE_NAMES[args.target];
      const prompt = summaryPrompt(translated, language, args.length);
      const { answer } = await run(
        execute(createCompletion, { ...summaryParameters(args.length), text: prompt, includeAiFilters: false }, deps, {
          signal,
          deadline,
          note: hooks.note,
        }),
      );
      const completion = answer.value.result;
      if (completion.text == null) {
        throw new CallFailure('unexpected_response', 'the completion answer has no result.text');
      }
      const summary = generatedPart(completion.text, prompt, summaryCue(language));
      const output: WorkflowOutput = {
        translation: translated,
        summary,
        chunks: chunks.length,
        sourceLanguage: detected ?? args.source,
        targetLanguage: args.target,
        tokens: {
          input: count(completion.inputLength, completion.inputTokens),
          output: count(completion.outputLength, completion.outputTokens),
        },
        stopReason: completion.stopReason ?? undefined,
      };
      meta.durationMs = deps.now() - started;
      return { reply: fitTranslation(output, pieces, chunks, frame.maxResultBytes), meta };
    },
    failedAt,
  );
}

/**
 * The result says in its text what its structured content holds, summary and translation, for clients that pass
 * only text to the model. When both do not fit in a result, the translation keeps whole translated pieces from the
 * start, and the usual note says which part of the source text the rest came from, so that it can be translated
 * with translation_translate_text.
 */
function fitTranslation(
  output: WorkflowOutput,
  pieces: readonly string[],
  chunks: readonly string[],
  maxBytes: number,
): Reply {
  const language = LANGUAGE_NAMES[output.targetLanguage as keyof typeof LANGUAGE_NAMES] ?? output.targetLanguage;
  const calls = `${output.chunks} translation call${output.chunks === 1 ? '' : 's'}`;
  const words = (value: WorkflowOutput, note?: string) =>
    `Summary (${language}):\n${value.summary}\n\nTranslation (${language}, ${calls}):\n${value.translation}` +
    (note === undefined ? '' : `\n\n${note}`);
  const size = (value: WorkflowOutput, note?: string) =>
    Buffer.byteLength(JSON.stringify(value), 'utf8') + Buffer.byteLength(words(value, note), 'utf8');
  if (size(output) <= maxBytes) return { json: output, text: words(output) };
  let kept = pieces.length;
  const partial = (): WorkflowOutput => ({ ...output, translation: pieces.slice(0, kept).join('').trim() });
  const note = () => {
    const from = chunks.slice(0, kept).join('').length;
    const left =
      kept === 0
        ? `translation holds none of the ${chunks.length} translated pieces`
        : `translation shows the first ${kept} of ${chunks.length} translated pieces (source characters 1-${from})`;
    const how = `To get the rest, translate characters ${from + 1}-${chunks.join('').length} of the source text with translation_translate_text.`;
    return shortenedNote(maxBytes, left, how);
  };
  while (kept > 0 && size(partial(), note()) > maxBytes) kept -= 1;
  return { json: partial(), text: words(partial(), note()) };
}

function stopIfCancelled(signal: AbortSignal): void {
  if (!signal.aborted) return;
  const failure = abortedFailure(signal, 'no');
  throw failure.withMessage(`${failure.message}; no further requests were sent`);
}

/** A token count: the service's length field, else the length of its token list; undefined when neither is given. */
function count(length: unknown, tokens: string[] | null | undefined): number | undefined {
  if (typeof length === 'number' && Number.isInteger(length) && length >= 0) return length;
  return tokens?.length;
}
