import { untranslatedSpans, type LanguageCode } from '../../catalogue/translation-rules.js';
import { applySubstitutions, type Substitution } from './glossary.js';
import { PHRASEBOOK_SENTENCES, findPhrase, renderPhrase } from './phrasebook.js';

export interface TranslateOptions {
  source: LanguageCode;
  target: LanguageCode;
  /** Polite ko/ja forms for phrasebook sentences (the caller has checked rule 4). */
  honorific: boolean;
  /**
   * Glossary terms or replaceInfo entries, applied to text the phrasebook does not know (rule 2: never made polite).
   */
  substitutions: readonly Substitution[];
  /** Rule 5: span tags are honoured only for the glossary pairs; elsewhere they are text like any other. */
  keepSpans: boolean;
}

/**
 * Marks text the sandbox did not translate, so that nobody (an agent least of all) takes the source for a
 * translation: it says in words that this is not a translation, and why.
 */
const UNTRANSLATED_MARKER = '[not translated by the sandbox: no phrasebook entry] ';

type Piece = { kind: 'space' | 'span' | 'known' | 'unknown'; text: string };

/**
 * Whitespace runs, and sentences: up to `.`/`!`/`?` followed by whitespace or the end, a CJK sentence mark, or
 * a line break. `3 p.m.` stays one sentence because its inner dots are not followed by whitespace.
 */
const SENTENCE = /\s+|\S[^\n]*?(?:[.!?]+(?=\s|$)|[。！？]+|(?=\n)|$)/gu;

/** What the sandbox made of a text: the text, and how many of its sentences the phrasebook did not know. */
export interface Translation {
  text: string;
  untranslated: number;
}

/**
 * The sandbox's translation: each sentence found in the phrasebook is translated (polite when asked); every
 * other run of sentences is returned as written, with glossary/replaceInfo terms substituted, behind one
 * UNTRANSLATED_MARKER. Untranslated spans are copied verbatim.
 */
export function translate(text: string, options: TranslateOptions): Translation {
  const pieces: Piece[] = [];
  const plain = (segment: string) => {
    for (const match of segment.matchAll(SENTENCE)) {
      const sentence = match[0];
      if (/^\s+$/.test(sentence)) {
        pieces.push({ kind: 'space', text: sentence });
        continue;
      }
      const phrase = findPhrase(sentence, options.source);
      pieces.push(
        phrase
          ? { kind: 'known', text: renderPhrase(phrase, options.target, options.honorific) }
          : { kind: 'unknown', text: applySubstitutions(sentence, options.substitutions) },
      );
    }
  };

  if (options.keepSpans) {
    let last = 0;
    for (const [start, end] of untranslatedSpans(text)) {
      plain(text.slice(last, start));
      pieces.push({ kind: 'span', text: text.slice(start, end) });
      last = end;
    }
    plain(text.slice(last));
  } else {
    plain(text);
  }

  let out = '';
  let inPseudoRun = false;
  let previous: Piece | undefined;
  for (const [i, piece] of pieces.entries()) {
    if (piece.kind === 'space' && isSentence(previous) && isSentence(pieces[i + 1]) && !piece.text.includes('\n'))
      continue; // joined below, as the target writes it
    let text = piece.text;
    if (piece.kind === 'unknown' && !inPseudoRun) text = UNTRANSLATED_MARKER + text;
    if (piece.kind === 'unknown') inPseudoRun = true;
    if (piece.kind === 'known') inPseudoRun = false;
    if (isSentence(previous) && isSentence(piece)) out += sentenceGap(out, text);
    out += text;
    previous = piece;
  }
  return { text: out, untranslated: pieces.filter((piece) => piece.kind === 'unknown').length };
}

/**
 * What every translation of the sandbox says of itself, in `simulated` (as its completions do): the sandbox is no
 * translation engine, and an answer with untranslated sentences is not what the real service would say.
 */
export function simulatedWords({ untranslated }: Translation): string {
  const known = `Simulated by the sandbox, not a translation engine: only the ${PHRASEBOOK_SENTENCES.length} sentences of its phrasebook are translated (${PHRASEBOOK_SENTENCES.join(' ')})`;
  if (untranslated === 0) return `${known}.`;
  const sentences = untranslated === 1 ? '1 sentence of this text is' : `${untranslated} sentences of this text are`;
  return `${known}; ${sentences} not in it, returned as written after ${UNTRANSLATED_MARKER.trim()}.`;
}

const isSentence = (piece: Piece | undefined) => piece?.kind === 'known' || piece?.kind === 'unknown';

/** A sentence that ends with a CJK full stop, and one that begins in Chinese or Japanese script. */
const CJK_END = /[。！？]$/u;
const CJK_START = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * What goes between two sentences on one line, whatever the source had there: nothing between Chinese or Japanese
 * sentences, which are written without spaces; one space everywhere else (こんにちは。ありがとう。 becomes
 * "Hello. Thank you.", and the reverse).
 */
const sentenceGap = (before: string, next: string) => (CJK_END.test(before) && CJK_START.test(next) ? '' : ' ');
