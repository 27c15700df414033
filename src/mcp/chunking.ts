import {
  TEXT_LIMIT,
  countedLength,
  spansHonoured,
  untranslatedSpans,
  type LanguageCode,
  type Range,
  type SourceCode,
} from '../catalogue/translation-rules.js';

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
  const flush = () => {
    if (current !== '') chunks.push(current);
    current = '';
  };
  // The whole chunk is counted again, not the sum of its pieces: a chunk is what the E3 check will see.
  const add = (piece: string) => {
    if (current !== '' && count(current + piece) > limit) flush();
    current += piece;
  };

  for (const sentence of slices(text, sentenceBreaks(text), spans, 0)) {
    if (count(sentence.text) <= limit) {
      add(sentence.text);
      continue;
    }
    // One sentence over the limit: its pieces, packed the same way.
    flush();
    for (const piece of splitLong(sentence.text, sentence.start, spans, limit, count)) add(piece);
  }
  flush();
  return chunks;
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
function splitLong(sentence: string, base: number, spans: readonly Range[], limit: number, count: (piece: string) => number): string[] {
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
