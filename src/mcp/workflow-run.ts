import { argumentsStage, runCall, type CallContext, type CallFrame, type ToolOutcome } from '../call/pipeline.js';
import type { CallRecord } from '../call/record.js';
import type { Reply } from '../call/render.js';
import { shortenedNote } from '../call/result-size.js';
import { refusal } from '../call/validation.js';
import { traced } from '../call/traced-stages.js';
import type { CompiledOperation } from '../catalogue/compile.js';
import type { createCompletion } from '../catalogue/textgen.js';
import type { AnyOperation, OperationOutput } from '../catalogue/types.js';
import { SERVER_LIMITS } from '../catalogue/fields.js';
import { LANGUAGE_NAMES } from '../catalogue/translation-rules.js';

import { CallFailure, abortedFailure } from '../failures.js';
import { chunkText } from './chunking.js';
import { generatedPart, summaryCue, summaryParameters, summaryPrompt } from './summary-prompt.js';
import { WORKFLOW_TOOL_NAME, workflowSchemas, type WorkflowOutput } from './workflow-schema.js';
import { translateText } from '../catalogue/translation.js';
import { envName } from '../config/index.js';

/** The two operations the flow calls, compiled with the others. */
export interface WorkflowOperations {
  translate: CompiledOperation<typeof translateText>;
  complete: CompiledOperation<typeof createCompletion>;
  /** The deadline of the whole flow (SVC_WORKFLOW_TIMEOUT_MS). */
  timeoutMs: number;
}

/**
 * The translate-and-summarize flow as one tool call, for pipelines without an orchestrating model. Every step goes
 * through the pipeline's own stages (arguments, exchange: auth, retries, timeouts) under one place, one record and one
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
  let record: CallRecord | undefined;
  let before = 0; // requests sent by the steps before this one
  // Every failure says how many requests went out (each one billed where its service bills), and how many of them
  // were this step's own (its retries); a step refused before it sent must not hide those of earlier steps.
  const failedAt = (f: CallFailure) => {
    const sent = record?.attempts ?? 0;
    const mine = sent - before;
    return (
      `${WORKFLOW_TOOL_NAME} failed at step "${step}" [${f.code}]: ${f.message}` +
      (sent > 0 ? ` (${requests(sent)} sent in all, ${mine > 0 ? `${mine} by this step` : 'none by this step'})` : '')
    );
  };

  return runCall(
    frame,
    WORKFLOW_TOOL_NAME,
    ctx,
    async (call) => {
      record = call.record;
      const { signal } = call;
      const parsed = workflowSchemas().input.safeParse(rawArgs ?? {});
      if (!parsed.success) throw refusal(parsed.error.issues);
      const args = parsed.data;
      const source = args.text.trim();
      const chunks = chunkText(source, { source: args.source, target: args.target });
      const total = chunks.length + (args.summarize ? 1 : 0);
      const progress = (done: number, message: string) => ctx.progress(done, total, message);
      const deadline = await traced('admission', deps.telemetry, {}, () =>
        call.admit({
          at: call.record.started + operations.timeoutMs,
          setting: envName('SVC_WORKFLOW_TIMEOUT_MS'),
        }),
      );
      const left = () => `${Math.max(0, Math.ceil((deadline.at - deps.now()) / 1000))} s left`;
      /** One step: the pipeline's arguments and exchange stages. */
      const run = async <Op extends AnyOperation>(
        operation: CompiledOperation<Op>,
        raw: Record<string, unknown>,
      ): Promise<OperationOutput<Op>> => {
        before = call.record.attempts;
        const { prepared } = argumentsStage(operation, raw, deps.settings);
        const answer = await traced('exchange', deps.telemetry, { operation }, () => call.exchange(prepared, deadline));
        if (answer.kind !== 'json') throw new CallFailure('unexpected_response', 'the answer is not JSON');
        return answer.value;
      };

      const pieces: string[] = [];
      const detected: string[] = [];
      const language = LANGUAGE_NAMES[args.target];
      try {
        for (const [i, chunk] of chunks.entries()) {
          step = chunks.length === 1 ? 'translate' : `translate chunk ${i + 1} of ${chunks.length}`;
          stopIfCancelled(signal);
          await progress(i, `translating chunk ${i + 1} of ${chunks.length} (${left()})`);
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
          detected.push(srcLangType ?? args.source);
          pieces.push(translatedText + trailing);
        }
        const languages = [...new Set(detected)];
        const translated: WorkflowOutput = {
          translation: pieces.join('').trim(),
          chunks: chunks.length,
          // Under auto each chunk is detected on its own: one language, or `mixed` and each chunk's.
          sourceLanguage: languages.length === 1 ? languages[0]! : languages.length === 0 ? args.source : 'mixed',
          ...(languages.length > 1 ? { sourceLanguages: detected } : {}),
          targetLanguage: args.target,
        };
        if (!args.summarize) return { reply: fitTranslation(translated, pieces, chunks, frame.maxResultBytes) };
        const summarized = await summarize();
        return { reply: fitTranslation({ ...translated, ...summarized }, pieces, chunks, frame.maxResultBytes) };
      } catch (error) {
        // Translations finished before a later step failed were billed: they come with the failure.
        if (pieces.length === 0) throw error;
        const failed = CallFailure.from(error);
        const room = frame.maxResultBytes - Buffer.byteLength(JSON.stringify(failedAt(failed)), 'utf8') - 400;
        return { failed, more: finishedTranslation(pieces, chunks, language, room) };
      }

      /** The summary of the translation: in parts, then the parts' summaries, when it outgrows one prompt. */
      async function summarize() {
        step = 'summarize';
        const cue = summaryCue(language);
        const used = { input: 0, output: 0, counted: false };
        let stopReason: string | undefined;
        const cutShort: string[] = [];
        /** One completion: the summary of `text`, whose prompt fits the model's limit. */
        const summarizeOnce = async (text: string, done: number, what: string): Promise<string> => {
          stopIfCancelled(signal);
          // Each step is reported when it starts (progress = steps done so far): a notification sent right before
          // the result can reach the client in the same read as the result, after which the SDK client has already
          // dropped the progress handler.
          await progress(done, `${what} (${left()})`);
          const prompt = summaryPrompt(text, language, args.length);
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
          if (stopReason === LENGTH_STOP) cutShort.push(what);
          return generatedPart(completion.text, prompt, cue);
        };
        // A translation longer than one prompt may hold (2-3 times its source, from Korean to English) is summarized
        // in parts, then the parts' summaries, as often as it takes: every accepted text gets its summary.
        const room = SERVER_LIMITS.promptChars - summaryPrompt('', language, args.length).length;
        let texts = groups(pieces, room);
        const parts = texts.length > 1 ? texts.length : undefined;
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
        return {
          summary,
          ...(parts ? { summaryParts: parts } : {}),
          tokens: used.counted ? { input: used.input, output: used.output } : {},
          // Any completion cut at maxTokens makes the summary short of something, whichever ended last.
          stopReason: cutShort.length > 0 ? LENGTH_STOP : stopReason,
          ...(cutShort.length > 0 ? { cutShort } : {}),
        };
      }
    },
    failedAt,
  );
}

/** The stopReason of a completion that reached maxTokens. */
const LENGTH_STOP = 'length';

const requests = (n: number) => `${n} request${n === 1 ? '' : 's'}`;

/**
 * The translated pieces from the start that fit in `room` bytes, and which part of the source the rest came from,
 * so that it can be translated with translation_translate_text.
 */
function keptPieces(pieces: readonly string[], chunks: readonly string[], fits: (kept: number) => boolean) {
  let kept = pieces.length;
  while (kept > 0 && !fits(kept)) kept -= 1;
  return kept;
}

const sourceRange = (chunks: readonly string[], kept: number) => ({
  from: chunks.slice(0, kept).join('').length,
  to: chunks.join('').length,
});

/** The failure's companion: what was translated (and billed) before it, within `room` bytes. */
function finishedTranslation(
  pieces: readonly string[],
  chunks: readonly string[],
  language: string,
  room: number,
): string {
  const text = (kept: number) => {
    const { from, to } = sourceRange(chunks, kept);
    const rest =
      kept === chunks.length
        ? ''
        : ` Not translated here: source characters ${from + 1}-${to} (translate them with ${translateText.name}).`;
    const done =
      pieces.length === chunks.length
        ? `The whole translation was finished (${requestsOf(chunks.length)}, billed) before the failure.`
        : `${pieces.length} of ${chunks.length} translation calls were finished (billed) before the failure.`;
    return `${done}${rest}\n\nTranslation (${language}, source characters 1-${from}):\n${pieces.slice(0, kept).join('').trim()}`;
  };
  const kept = keptPieces(pieces, chunks, (k) => Buffer.byteLength(JSON.stringify(text(k)), 'utf8') <= room);
  return text(kept);
}

const requestsOf = (n: number) => `${n} translation call${n === 1 ? '' : 's'}`;

/**
 * The result says in its text what its structured content holds, summary and translation, for clients that pass
 * only text to the model. When both do not fit in a result, the translation keeps whole translated pieces from the
 * start, and the usual note says which part of the source text the rest came from, so that it can be translated
 * with translation_translate_text.
 */
function fitTranslation(
  output: WorkflowOutput & { cutShort?: string[] },
  pieces: readonly string[],
  chunks: readonly string[],
  maxBytes: number,
): Reply {
  const { cutShort, ...value } = output;
  const language = LANGUAGE_NAMES[value.targetLanguage as keyof typeof LANGUAGE_NAMES] ?? value.targetLanguage;
  const calls = requestsOf(value.chunks);
  const from = value.summaryParts ? `, made from the summaries of ${value.summaryParts} parts` : '';
  const short = cutShort
    ? `\n(stopReason length: ${cutShort.join(', ')} stopped at maxTokens; the summary may miss or cut short a part.)`
    : '';
  const mixed = value.sourceLanguages ? `\nSource languages by chunk: ${value.sourceLanguages.join(', ')}.` : '';
  const words = (v: WorkflowOutput, note?: string) =>
    (v.summary === undefined ? '' : `Summary (${language}${from}):\n${v.summary}${short}\n\n`) +
    `Translation (${language}, ${calls}):\n${v.translation}${mixed}` +
    (note === undefined ? '' : `\n\n${note}`);
  const size = (v: WorkflowOutput, note?: string) =>
    Buffer.byteLength(JSON.stringify(v), 'utf8') + Buffer.byteLength(JSON.stringify(words(v, note)), 'utf8');
  if (size(value) <= maxBytes) return { json: value, text: words(value) };
  const partial = (kept: number): WorkflowOutput => ({ ...value, translation: pieces.slice(0, kept).join('').trim() });
  const note = (kept: number) => {
    const { from: end, to } = sourceRange(chunks, kept);
    const left =
      kept === 0
        ? `translation holds none of the ${chunks.length} translated pieces`
        : `translation shows the first ${kept} of ${chunks.length} translated pieces (source characters 1-${end})`;
    const how = `To get the rest, translate characters ${end + 1}-${to} of the source text with ${translateText.name}.`;
    return shortenedNote(maxBytes, left, how);
  };
  const kept = keptPieces(pieces, chunks, (k) => size(partial(k), note(k)) <= maxBytes);
  return { json: partial(kept), text: words(partial(kept), note(kept)) };
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
