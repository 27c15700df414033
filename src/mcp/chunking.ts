import {
  TEXT_LIMIT,
  countedLength,
  spansHonoured,
  untranslatedSpans,
  type LanguageCode,
  type Range,
  type SourceCode,
} from '../catalogue/translation-rules.js';

/**
 * The longest text the workflow tool and the prompts accept (characters: code points, as zod counts them): about ten
 * translation calls, enough for a long article, and a bound on the upstream quota one request can spend and on the
 * work and memory of splitting it.
 */
export const MAX_TEXT_LENGTH = 50_000;

export interface ChunkOptions {
  source: SourceCode;
  target: LanguageCode;
  /** Counted characters per chunk; E3's limit by default. */
  limit?: number;
}

/**
 * Splits text for the translation service (E3) so that every chunk passes the tool's own length check for the
 * direction: counted as E3 counts (translation-rules.ts), untranslated spans free only where they are honoured.
 *
 * The chunks are consecutive slices of the text (joined, they give the text back exactly), each of at most
 * `limit` counted characters. They end at sentence boundaries; a sentence longer than the limit is split at
 * whitespace, and a run without whitespace longer than the limit at a character. An untranslated span is never
 * split, unless it is not honoured and alone longer than the limit. Pure.
 */
export function chunkText(text: string, { source, target, limit = TEXT_LIMIT }: ChunkOptions): string[] {
  if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError('limit must be a positive integer');
  if (text === '') return [];
  const count = (piece: string) => countedLength(piece, source, target);
  if (count(text) <= limit) return [text];

  const honoured = spansHonoured(source, target);
  const spans = untranslatedSpans(text).filter(([s, e]) => honoured || count(text.slice(s, e)) <= limit);
  const chunks: string[] = [];
  let current = '';
  let counted = 0;
  const flush = () => {
    if (current !== '') chunks.push(current);
    current = '';
    counted = 0;
  };
  // A chunk counts what its pieces count together: where spans are free no cut falls inside one, so each span is
  // whole in one piece and free there as in the chunk; elsewhere every character counts wherever it is. (Counting
  // the chunk again for each piece would read up to the limit again per piece: 5000 characters per short sentence.)
  const add = (piece: string, pieceCount = count(piece)) => {
    if (current !== '' && counted + pieceCount > limit) flush();
    current += piece;
    counted += pieceCount;
  };

  for (const sentence of slices(text, sentenceBreaks(text), spans, 0)) {
    const sentenceCount = count(sentence.text);
    if (sentenceCount <= limit) {
      add(sentence.text, sentenceCount);
      continue;
    }
    // One sentence over the limit: its pieces, packed the same way.
    flush();
    for (const piece of splitLong(sentence.text, sentence.start, spans, limit, count)) add(piece);
  }
  flush();
  return chunks;
}

/** Created on first use, not at start-up (it costs ~6 ms, and only the workflow tool and prompts chunk text). */
let sentences: Intl.Segmenter | undefined;

/** Characters the segmenter is given at once, and how many at a window's end it may need to see past a boundary. */
const WINDOW = 1000;
const LOOKAHEAD = 100;

/**
 * Sentence boundaries in order (Unicode sentence segmentation, which knows CJK sentence marks and line breaks).
 * The segmenter is given a window of the text at a time: every segment it returns carries a copy of its whole
 * input (V8), so one pass over the whole text costs time, and keeping the segments memory, in the square of its
 * length. Whether a full stop ends a sentence can depend on what follows it (a lower-case word after it, past any
 * punctuation, does not), so a window's boundaries are taken only up to LOOKAHEAD characters before its end, and the
 * next window starts at the last of them (or there, within a sentence longer than a window). Only a full stop
 * followed by more than LOOKAHEAD characters without a letter could be judged otherwise than in the whole text:
 * the chunks stay valid, cut at another sentence.
 */
function* sentenceBreaks(text: string): Generator<number> {
  sentences ??= new Intl.Segmenter(undefined, { granularity: 'sentence' });
  let from = 0;
  while (from < text.length) {
    const to = Math.min(text.length, from + WINDOW);
    let safe = to === text.length ? to : to - LOOKAHEAD;
    if (isLowSurrogate(text.charCodeAt(safe))) safe -= 1;
    let last = from;
    for (const segment of sentences.segment(text.slice(from, to))) {
      const end = from + segment.index + segment.segment.length;
      if (end > safe) break;
      yield (last = end);
    }
    from = last > from ? last : safe;
  }
}

const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** The text cut at the given boundaries (offsets within `text`, in order), skipping any that fall inside a span. */
function slices(text: string, breaks: Iterable<number>, spans: readonly Range[], base: number) {
  const out: { text: string; start: number }[] = [];
  let start = 0;
  // The boundaries come in order: the first span that ends after one is found once, then only moves on.
  let span = firstEndingAfter(spans, base);
  for (const end of breaks) {
    if (end <= start || end >= text.length) continue;
    while (span < spans.length && spans[span]![1] <= base + end) span += 1;
    if (span < spans.length && spans[span]![0] < base + end) continue; // inside that span
    out.push({ text: text.slice(start, end), start: base + start });
    start = end;
  }
  if (start < text.length) out.push({ text: text.slice(start), start: base + start });
  return out;
}

/** The index of the first of the spans (in order, apart) that ends after `offset`; binary search. */
function firstEndingAfter(spans: readonly Range[], offset: number): number {
  let low = 0;
  let high = spans.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (spans[middle]![1] <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A sentence over the limit: cut after whitespace runs; a word still over the limit, between characters. */
function splitLong(
  sentence: string,
  base: number,
  spans: readonly Range[],
  limit: number,
  count: (piece: string) => number,
): string[] {
  const afterWhitespace = [...sentence.matchAll(/\s+/g)].map((m) => m.index + m[0].length);
  const out: string[] = [];
  for (const word of slices(sentence, afterWhitespace, spans, base)) {
    if (count(word.text) <= limit) {
      out.push(word.text);
      continue;
    }
    // Code point boundaries (never inside a surrogate pair), spans kept whole: one character each.
    const points: number[] = [];
    let offset = 0;
    for (const ch of word.text) points.push((offset += ch.length));
    for (const piece of slices(word.text, points, spans, word.start)) out.push(piece.text);
  }
  return out;
}
