import { TEXT_LIMIT, UNTRANSLATED_SPAN, countedLength } from '../catalogue/languages.js';

/**
 * Splits text for the translation service (E3: at most 5000 characters per call, not counting
 * `<span translate="no">…</span>` / `<span class="notranslate">…</span>` spans).
 *
 * The chunks are consecutive slices of the text (joined, they give the text back exactly), each of at most
 * `limit` counted characters. They end at sentence boundaries; a sentence longer than the limit is split at
 * whitespace, and a run without whitespace longer than the limit at a character. An untranslated span is never
 * split. Pure.
 */
export function chunkText(text: string, limit: number = TEXT_LIMIT): string[] {
  if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError('limit must be a positive integer');
  if (text === '') return [];
  if (countedLength(text) <= limit) return [text];

  const spans = spanRanges(text);
  const chunks: string[] = [];
  let current = '';
  let currentLength = 0;
  const flush = () => {
    if (current !== '') chunks.push(current);
    current = '';
    currentLength = 0;
  };

  for (const sentence of slices(text, sentenceBreaks(text), spans, 0)) {
    const length = countedLength(sentence.text);
    if (length <= limit) {
      if (currentLength + length > limit) flush();
      current += sentence.text;
      currentLength += length;
      continue;
    }
    // One sentence over the limit: its pieces, packed the same way.
    flush();
    for (const piece of splitLong(sentence.text, sentence.start, spans, limit)) {
      const pieceLength = countedLength(piece);
      if (currentLength + pieceLength > limit) flush();
      current += piece;
      currentLength += pieceLength;
    }
  }
  flush();
  return chunks;
}

type Range = readonly [start: number, end: number];

/** Where the untranslated spans are (UTF-16 offsets, end exclusive). */
function spanRanges(text: string): Range[] {
  return [...text.matchAll(UNTRANSLATED_SPAN)].map((m) => [m.index, m.index + m[0].length] as const);
}

const insideSpan = (offset: number, spans: readonly Range[]) => spans.some(([s, e]) => s < offset && offset < e);

/** Created on first use, not at start-up (it costs ~6 ms, and only the workflow tool and prompts chunk text). */
let sentences: Intl.Segmenter | undefined;

/** Sentence boundaries (Unicode sentence segmentation, which knows CJK sentence marks and line breaks). */
function sentenceBreaks(text: string): number[] {
  sentences ??= new Intl.Segmenter(undefined, { granularity: 'sentence' });
  return [...sentences.segment(text)].map((s) => s.index + s.segment.length);
}

/** The text cut at the given boundaries (offsets within `text`), skipping any that fall inside a span. */
function slices(text: string, breaks: readonly number[], spans: readonly Range[], base: number) {
  const out: { text: string; start: number }[] = [];
  let start = 0;
  for (const end of breaks) {
    if (end <= start || end >= text.length || insideSpan(base + end, spans)) continue;
    out.push({ text: text.slice(start, end), start: base + start });
    start = end;
  }
  if (start < text.length) out.push({ text: text.slice(start), start: base + start });
  return out;
}

/** A sentence over the limit: cut after whitespace runs; a word still over the limit, between characters. */
function splitLong(sentence: string, base: number, spans: readonly Range[], limit: number): string[] {
  const afterWhitespace = [...sentence.matchAll(/\s+/g)].map((m) => m.index + m[0].length);
  const out: string[] = [];
  for (const word of slices(sentence, afterWhitespace, spans, base)) {
    if (countedLength(word.text) <= limit) {
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
