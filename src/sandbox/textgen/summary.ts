import { tokenStream } from './tokenizer.js';
import type { Generation, StopReason } from './generation.js';

/**
 * A summarising prompt gets an extractive answer, not the generator's filler: the first sentences of the text to
 * summarise, copied in the text's own language, as many as the prompt asks for, behind a marker that says the
 * summary is simulated. A real model would write a summary; this one is honest about what it did. Deterministic,
 * and linear in the prompt.
 */

/** What a prompt asks for when it asks for a summary. */
export interface SummaryRequest {
  /** The text to summarise. */
  text: string;
  /** Sentences asked for: the lower bound of "one or two" or "three to five"; DEFAULT_SENTENCES when none is said. */
  sentences: number;
}

const DEFAULT_SENTENCES = 3;
const MAX_SENTENCES = 50;
/** Only the head of a prompt is read for the instruction: a summarising instruction is short. */
const MAX_INSTRUCTION_CHARS = 2000;

const SUMMARISE = /\bsummar(?:y|i[sz]e|i[sz]ing)\b/i;
const NUMBER = '\\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten';
/** "two sentences", "one or two sentences", "3-5 sentences": the first number is captured. */
const COUNT = new RegExp(
  `\\b(${NUMBER})(?:[ \\t]+(?:or|to)[ \\t]+(?:${NUMBER})|[ \\t]*[-–][ \\t]*(?:${NUMBER}))?[ \\t]+sentences?\\b`,
  'i',
);
const WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

const numberOf = (word: string) => WORDS[word.toLowerCase()] ?? Number(word);

/**
 * The instruction and the text of a prompt. The server's summary prompt (src/mcp/summary-prompt.ts) puts the text
 * under a `### Text` line, up to the next `###` line; any other prompt is read as an instruction line (up to a colon
 * or the first line break) followed by the text.
 */
function split(prompt: string): { instruction: string; text: string } {
  const header = /^###[ \t]*Text[ \t]*$/m.exec(prompt);
  if (header) {
    const start = header.index + header[0].length;
    const next = prompt.indexOf('\n###', start);
    return { instruction: prompt.slice(0, header.index), text: prompt.slice(start, next === -1 ? undefined : next) };
  }
  const lineEnd = prompt.indexOf('\n');
  const head = prompt.slice(0, Math.min(lineEnd === -1 ? prompt.length : lineEnd, MAX_INSTRUCTION_CHARS));
  const colon = head.indexOf(':');
  const end = colon !== -1 ? colon + 1 : lineEnd === -1 ? prompt.length : lineEnd + 1;
  return { instruction: prompt.slice(0, end), text: prompt.slice(end) };
}

/** The summary a prompt asks for, or undefined when it asks for none (or gives no text to summarise). */
export function summaryRequest(prompt: string): SummaryRequest | undefined {
  const { instruction: whole, text } = split(prompt);
  const instruction = whole.slice(0, MAX_INSTRUCTION_CHARS);
  if (!SUMMARISE.test(instruction) || text.trim() === '') return undefined;
  const count = COUNT.exec(instruction);
  // A range ("three to five") is met by its lower bound: the shortest summary asked for.
  const asked = count ? numberOf(count[1]!) : DEFAULT_SENTENCES;
  return { text, sentences: Math.min(MAX_SENTENCES, Math.max(1, asked)) };
}

const ENDS_SENTENCE = new Set(['.', '!', '?']);
const ENDS_SENTENCE_CJK = new Set(['。', '！', '？']);
const SPACE = /\s/u;

/**
 * The first `max` sentences of a text, whitespace inside each collapsed to one space. A sentence ends at `.`, `!` or
 * `?` followed by whitespace or the end, at a run of CJK sentence marks, or at a line break. One pass over the text,
 * which stops as soon as `max` sentences are found.
 */
function firstSentences(text: string, max: number): string[] {
  const sentences: string[] = [];
  let start = -1;
  const close = (end: number) => {
    if (start !== -1) sentences.push(text.slice(start, end).replace(/\s+/gu, ' ').trim());
    start = -1;
  };
  for (let i = 0; i < text.length && sentences.length < max; i++) {
    const ch = text[i]!;
    if (ch === '\n') close(i);
    else if (SPACE.test(ch)) continue;
    else {
      if (start === -1) start = i;
      const next = text[i + 1];
      if (
        ENDS_SENTENCE_CJK.has(ch)
          ? !ENDS_SENTENCE_CJK.has(next ?? '')
          : ENDS_SENTENCE.has(ch) && (next === undefined || SPACE.test(next))
      ) {
        close(i + 1);
      }
    }
  }
  if (sentences.length < max) close(text.length);
  return sentences;
}

/** Says what the simulated summary is, so that nobody takes it for a model's. */
const summaryMarker = (count: number) =>
  `[simulated summary: ${count === 1 ? 'first sentence' : `first ${count} sentences`} of the input]`;

/**
 * The extractive completion of a summarising prompt: the marker and the sentences, emitted token by token with the
 * request's maxTokens and stopBefore honoured, each token certain (probability 1).
 */
export function summarise(
  request: SummaryRequest,
  options: { prompt: string; maxTokens: number; stopBefore: readonly string[] },
): Generation {
  const sentences = firstSentences(request.text, request.sentences);
  const separator = options.prompt === '' || /\s$/u.test(options.prompt) ? '' : ' ';
  // CJK sentences follow each other without a space, as they are written.
  const body = sentences
    .map((s, i) => (i > 0 && !ENDS_SENTENCE_CJK.has(sentences[i - 1]!.slice(-1)) ? ` ${s}` : s))
    .join('');
  const whole = `${separator}${summaryMarker(sentences.length)} ${body}`;
  const tokens: string[] = [];
  let text = '';
  let stopReason: StopReason = 'end_token';
  for (const token of tokenStream(whole)) {
    const before = text.length;
    text += token;
    tokens.push(token);
    const cut = earliestStop(text, before, options.stopBefore);
    if (cut !== undefined) {
      // A stop sequence may begin in an earlier token: keep the tokens up to it, the last one cut.
      text = text.slice(0, cut);
      let length = 0;
      let keep = 0;
      while (keep < tokens.length && length + tokens[keep]!.length <= cut) length += tokens[keep++]!.length;
      const partial = tokens[keep]?.slice(0, cut - length) ?? '';
      tokens.length = keep;
      if (partial !== '') tokens.push(partial);
      stopReason = 'stop_before';
      break;
    }
    if (tokens.length >= options.maxTokens) {
      stopReason = 'length';
      break;
    }
  }
  return { text, tokens, probs: tokens.map(() => 1), stopReason };
}

/**
 * The earliest stop sequence in `text` that ends after `from` (the ones ending before were looked for already), so
 * that each token costs only its own length and the stop sequences'.
 */
function earliestStop(text: string, from: number, stops: readonly string[]): number | undefined {
  let best: number | undefined;
  for (const stop of stops) {
    const at = text.indexOf(stop, Math.max(0, from - stop.length + 1));
    if (at >= 0 && (best === undefined || at < best)) best = at;
  }
  return best;
}
