import { readArguments } from '../call/arguments.js';
import { runCall, type CallContext, type CallFrame, type ToolOutcome } from '../call/pipeline.js';
import type { Reply } from '../call/render.js';
import { shortenedNote } from '../call/result-size.js';
import { refusal } from '../call/validation.js';
import type { CompiledOperation } from '../catalogue/compile.js';
import type { createCompletion } from '../catalogue/textgen.js';
import type { AnyOperation, OperationOutput } from '../catalogue/types.js';
import { SERVER_LIMITS } from '../catalogue/fields.js';
import { LANGUAGE_NAMES } from '../catalogue/translation-rules.js';

import { CallFailure, abortedFailure } from '../upstream/failure.js';
import { prepareRequest } from '../upstream/request.js';
import { chunkText } from './chunking.js';
import { generatedPart, summaryCue, summaryParameters, summaryPrompt } from './summary-prompt.js';
import { WORKFLOW_TOOL_NAME, workflowSchemas, type WorkflowOutput } from './workflow-schema.js';
import { translateText } from '../catalogue/translation.js';

/** The two operations the flow calls, compiled with the others. */
export interface WorkflowOperations {
  translate: CompiledOperation<typeof translateText>;
  complete: CompiledOperation<typeof createCompletion>;
}

/**
 * The translate-and-summarize flow as one tool call, for pipelines without an orchestrating model. Every step goes
 * through the pipeline's own stages (arguments, attempts: auth, retries, timeouts) under one place, one record and one
 * deadline for the whole flow (SVC_WORKFLOW_TIMEOUT_MS; each step never more than SVC_TIMEOUT_MS).
 */
export function runWorkflow(
  rawArgs: Record<string, unknown> | undefined,
  ctx: CallContext,
  frame: CallFrame,
  operations: WorkflowOperations,
): Promise<ToolOutcome> {
  const { deps } = frame;
  let step = 'check arguments';
  let sent = 0;
  // A step refused before it sent says so of itself: the words must not hide the requests earlier steps sent.
  const failedAt = (f: CallFailure) =>
    `${WORKFLOW_TOOL_NAME} failed at step "${step}" [${f.code}]: ${f.message}` +
    (sent > 0 && f.code === 'invalid_input'
      ? ` (${sent} request${sent === 1 ? '' : 's'} of earlier steps had been sent)`
      : '');

  return runCall(
    frame,
    WORKFLOW_TOOL_NAME,
    ctx,
    async (call) => {
      const { signal } = call;
      const parsed = workflowSchemas().input.safeParse(rawArgs ?? {});
      if (!parsed.success) throw refusal(parsed.error.issues);
      const args = parsed.data;
      const source = args.text.trim();
      const chunks = chunkText(source, { source: args.source, target: args.target });
      const total = chunks.length + 1;
      const progress = (done: number, message: string) => ctx.progress(done, total, message);
      const deadline = await call.admit({
        at: call.record.started + deps.config.limits.workflowTimeoutMs,
        setting: 'SVC_WORKFLOW_TIMEOUT_MS',
      });
      const left = () => `${Math.max(0, Math.ceil((deadline.at - deps.now()) / 1000))} s left`;
      /** One step: its arguments checked as the operation's own, then its attempts. */
      const run = async <Op extends AnyOperation>(
        operation: CompiledOperation<Op>,
        raw: Record<string, unknown>,
      ): Promise<OperationOutput<Op>> => {
        const { args: checked } = readArguments(operation, raw);
        const answer = await call.attempt(prepareRequest(operation, checked, deps.config), deadline);
        if (answer.kind !== 'json') throw new CallFailure('unexpected_response', 'the answer is not JSON');
        return answer.value;
      };

      const pieces: string[] = [];
      let detected: string | undefined;
      for (const [i, chunk] of chunks.entries()) {
        step = chunks.length === 1 ? 'translate' : `translate chunk ${i + 1} of ${chunks.length}`;
        stopIfCancelled(signal);
        await progress(i, `translating chunk ${i + 1} of ${chunks.length} (${left()})`);
        sent = call.record.attempts;
        const text = chunk.trim();
        const trailing = chunk.slice(chunk.trimEnd().length);
        const answer = await run(operations.translate, {
          source: args.source,
          target: args.target,
          text,
          honorific: args.honorific,
          glossaryKey: args.glossaryKey,
        });
        const { translatedText, srcLangType } = answer.message.result;
        detected ??= srcLangType ?? undefined;
        pieces.push(translatedText + trailing);
      }
      const translated = pieces.join('').trim();

      step = 'summarize';
      const language = LANGUAGE_NAMES[args.target];
      const cue = summaryCue(language);
      const used = { input: 0, output: 0, counted: false };
      let stopReason: string | undefined;
      /** One completion: the summary of `text`, whose prompt fits the model's limit. */
      const summarizeOnce = async (text: string, done: number, what: string): Promise<string> => {
        stopIfCancelled(signal);
        // Each step is reported when it starts (progress = steps done so far): a notification sent right before the
        // result can reach the client in the same read as the result, after which the SDK client has already
        // dropped the progress handler.
        await progress(done, `${what} (${left()})`);
        const prompt = summaryPrompt(text, language, args.length);
        sent = call.record.attempts;
        const answer = await run(operations.complete, {
          ...summaryParameters(args.length),
          text: prompt,
          includeAiFilters: false,
        });
        const completion = answer.result;
        if (completion.text == null) {
          throw new CallFailure('unexpected_response', 'the completion answer has no result.text');
        }
        const input = count(completion.inputLength, completion.inputTokens);
        const output = count(completion.outputLength, completion.outputTokens);
        if (input !== undefined || output !== undefined) used.counted = true;
        used.input += input ?? 0;
        used.output += output ?? 0;
        stopReason = completion.stopReason ?? undefined;
        return generatedPart(completion.text, prompt, cue);
      };
      // A translation longer than one prompt may hold (2-3 times its source, from Korean to English) is summarized in
      // parts, then the parts' summaries, as often as it takes: every accepted text gets its summary.
      const room = SERVER_LIMITS.promptChars - summaryPrompt('', language, args.length).length;
      let texts = groups(pieces, room);
      let round = 0;
      while (texts.length > 1) {
        round += 1;
        const summaries: string[] = [];
        for (const [i, text] of texts.entries()) {
          step = `summarize part ${i + 1} of ${texts.length}${round > 1 ? ` (round ${round})` : ''}`;
          const done = chunks.length + i / texts.length;
          summaries.push(`${await summarizeOnce(text, done, `summarizing part ${i + 1} of ${texts.length}`)}\n\n`);
        }
        texts = groups(summaries, room);
      }
      step = round > 0 ? 'summarize the parts' : 'summarize';
      const summary = await summarizeOnce(texts[0] ?? '', chunks.length + (round > 0 ? 0.99 : 0), 'summarizing');
      const output: WorkflowOutput = {
        translation: translated,
        summary,
        chunks: chunks.length,
        sourceLanguage: detected ?? args.source,
        targetLanguage: args.target,
        tokens: used.counted ? { input: used.input, output: used.output } : { input: undefined, output: undefined },
        stopReason,
      };
      return { reply: fitTranslation(output, pieces, chunks, frame.maxResultBytes) };
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
    const how = `To get the rest, translate characters ${from + 1}-${chunks.join('').length} of the source text with ${translateText.name}.`;
    return shortenedNote(maxBytes, left, how);
  };
  while (kept > 0 && size(partial(), note()) > maxBytes) kept -= 1;
  return { json: partial(), text: words(partial(), note()) };
}

/**
 * Consecutive pieces gathered into texts of at most `room` characters each (a piece longer than that is cut, at the
 * last whitespace before the limit where there is one).
 */
function groups(pieces: readonly string[], room: number): string[] {
  const texts: string[] = [];
  let current = '';
  for (let piece of pieces) {
    while (piece.length > room) {
      const space = piece.lastIndexOf(' ', room);
      const at = space > room / 2 ? space : room;
      if (current !== '') texts.push(current);
      texts.push(piece.slice(0, at));
      current = '';
      piece = piece.slice(at);
    }
    if (current.length + piece.length > room) {
      texts.push(current);
      current = '';
    }
    current += piece;
  }
  if (current.trim() !== '' || texts.length === 0) texts.push(current);
  return texts;
}

function stopIfCancelled(signal: AbortSignal): void {
  if (!signal.aborted) return;
  const failure = abortedFailure(signal, 'no');
  throw failure.withMessage(`${failure.message}; no further requests were sent`);
}

/** A token count: the service's length field, else the length of its token list; undefined when neither is given. */
function count(length: unknown, tokens: readonly unknown[] | null | undefined): number | undefined {
  if (typeof length === 'number' && Number.isInteger(length) && length >= 0) return length;
  return tokens?.length;
}
