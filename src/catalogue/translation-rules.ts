/**
 * The translation rules of the spec (E3), defined once: the languages, the direction table, rules 3-5, the span
 * grammar and what counts toward the 5000-character limit. The E3 tool, the workflow tool's chunker, the prompts,
 * the resources and the sandbox all ask this module; none of them restates a rule.
 */

export const LANGUAGE_NAMES = {
  ko: 'Korean',
  en: 'English',
  ja: 'Japanese',
  'zh-CN': 'Chinese (Simplified)',
  'zh-TW': 'Chinese (Traditional)',
  vi: 'Vietnamese',
  th: 'Thai',
  id: 'Indonesian',
  fr: 'French',
  es: 'Spanish',
  ru: 'Russian',
  de: 'German',
  it: 'Italian',
} as const;
export type LanguageCode = keyof typeof LANGUAGE_NAMES;
export const LANGUAGE_CODES = Object.keys(LANGUAGE_NAMES) as LanguageCode[];
export const SOURCE_CODES = ['auto', ...LANGUAGE_CODES] as const;
export type SourceCode = (typeof SOURCE_CODES)[number];

export const isLanguage = (code: string): code is LanguageCode => Object.hasOwn(LANGUAGE_NAMES, code);

/** E3: characters per call, not counting untranslated spans where they are honoured (rule 5). */
export const TEXT_LIMIT = 5000;

/** The spec's direction table, as written (source -> targets). Sources it does not show: "not shown". */
const TABLE: Partial<Record<LanguageCode, readonly LanguageCode[]>> = {
  ko: ['en', 'ja', 'zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr', 'es', 'ru', 'de', 'it'],
  en: ['ko', 'ja', 'zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr', 'es', 'ru', 'de'],
  ja: ['zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr'],
  'zh-CN': ['zh-TW'],
};

/** Rule 3: glossaryKey and replaceInfo, "in both directions"; rule 5 gives span tags the same languages. */
const RULE_3: readonly (readonly [LanguageCode, readonly LanguageCode[]])[] = [
  ['ko', ['en', 'ja', 'zh-CN', 'zh-TW', 'fr']],
  ['en', ['ja', 'zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr']],
  ['ja', ['zh-CN', 'zh-TW']],
];

/** Rule 4: honorific, one direction each (into Korean or Japanese). */
const RULE_4: readonly (readonly [LanguageCode, LanguageCode])[] = [
  ['en', 'ko'],
  ['ja', 'ko'],
  ['zh-CN', 'ko'],
  ['zh-TW', 'ko'],
  ['ko', 'ja'],
  ['en', 'ja'],
  ['zh-CN', 'ja'],
  ['zh-TW', 'ja'],
];

const key = (source: string, target: string) => `${source}>${target}`;
const RULE_3_PAIRS = new Set(RULE_3.flatMap(([a, others]) => others.flatMap((b) => [key(a, b), key(b, a)])));
const RULE_4_PAIRS = new Set(RULE_4.map(([s, t]) => key(s, t)));

/**
 * What backs a direction. The table lists each pair once and pairs work in both directions (rule 3 says so, and
 * rule 4's honorific directions ja -> ko, zh -> ko and zh -> ja are reverses of listed pairs), so every direction of
 * rules 3 and 4 is `documented` or `documented in reverse`. `not documented`: a source the table does not show ("not
 * shown"): sent, and the platform decides. `ruled out`: the same language on both sides (a direction needs a source
 * different from the target), or a source the table shows with a target that neither its row nor a reverse gives.
 */
export type DirectionBasis = 'documented' | 'documented in reverse' | 'not documented' | 'ruled out';

export function directionBasis(source: LanguageCode, target: LanguageCode): DirectionBasis {
  if (source === target) return 'ruled out';
  if (TABLE[source]?.includes(target)) return 'documented';
  if (TABLE[target]?.includes(source)) return 'documented in reverse';
  return TABLE[source] ? 'ruled out' : 'not documented';
}

/** Each basis in plain words, for an agent that never sees the spec: the resource and docs/tools.md say these. */
export const BASIS_MEANINGS: Readonly<Record<Exclude<DirectionBasis, 'ruled out'>, string>> = {
  documented: 'the translation service documents this direction',
  'documented in reverse': 'the service documents the opposite direction, and its language pairs work both ways',
  'not documented':
    'the service documents no directions from this source language: the request is sent, and the service decides',
};

/** The sources whose directions the service documents: from them, only documented directions and reverses are sent. */
const DOCUMENTED_SOURCES = LANGUAGE_CODES.filter((code) => TABLE[code] !== undefined);

/** Rule 3's pairs and rule 4's directions in words, for refusals, notes and docs/tools.md. */
export const GLOSSARY_PAIRS_WORDS = `${RULE_3.map(([a, others]) => `${a} with ${others.join(', ')}`).join('; ')} (both ways)`;
export const HONORIFIC_WORDS = [...new Set(RULE_4.map(([, t]) => t))]
  .map(
    (target) =>
      `${RULE_4.filter(([, t]) => t === target)
        .map(([s]) => s)
        .join(', ')} -> ${target}`,
  )
  .join('; ');

const isRuledOut = (source: LanguageCode, target: LanguageCode) => directionBasis(source, target) === 'ruled out';

/** Targets a source may be sent with (every basis but `ruled out`), in LANGUAGE_CODES order. */
export function targetsOf(source: LanguageCode): LanguageCode[] {
  return LANGUAGE_CODES.filter((target) => !isRuledOut(source, target));
}

/** Sources a text detected by `auto` may have, for a target: those not ruled out with it. */
const possibleSources = (target: LanguageCode) => LANGUAGE_CODES.filter((s) => !isRuledOut(s, target));

/** Rule 3 (and rule 5: span tags are honoured on the same pairs). */
const supportsGlossary = (source: LanguageCode, target: LanguageCode) => RULE_3_PAIRS.has(key(source, target));
/** Rule 4. */
const supportsHonorific = (source: LanguageCode, target: LanguageCode) => RULE_4_PAIRS.has(key(source, target));

/**
 * Whether a feature can apply to a direction. With `auto` the source is known only upstream, so a feature can
 * apply when it does for some source the text may have: the tool then lets the platform decide.
 */
function possible(
  rule: (s: LanguageCode, t: LanguageCode) => boolean,
  source: SourceCode,
  target: LanguageCode,
): boolean {
  return source === 'auto' ? possibleSources(target).some((s) => rule(s, target)) : rule(source, target);
}
const glossaryPossible = (source: SourceCode, target: LanguageCode) => possible(supportsGlossary, source, target);
const honorificPossible = (source: SourceCode, target: LanguageCode) => possible(supportsHonorific, source, target);
/** Rule 5: span tags are honoured (and not counted) on the glossary pairs; elsewhere they are text like any other. */
export const spansHonoured = glossaryPossible;

export type Range = readonly [start: number, end: number];

const SPAN_TAG = /<(\/?)span\b([^>]*)>/gi;
const ATTRIBUTE = /([^\s=/"'>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** `translate="no"` or a class list holding `notranslate`, in any case and any quoting, among other attributes. */
function marksUntranslated(attributes: string): boolean {
  for (const m of attributes.matchAll(ATTRIBUTE)) {
    const name = m[1]!.toLowerCase();
    const value = (m[2] ?? m[3] ?? m[4] ?? '').trim().toLowerCase();
    if (name === 'translate' && value === 'no') return true;
    if (name === 'class' && value.split(/\s+/).includes('notranslate')) return true;
  }
  return false;
}

/**
 * Where the untranslated spans are (UTF-16 offsets, end exclusive, tags included): `<span translate="no">…</span>`
 * and `<span class="notranslate">…</span>`, with nested spans inside closing at their own `</span>`. An
 * untranslated span that is never closed is not a span: its text counts.
 */
export function untranslatedSpans(text: string): Range[] {
  const spans: Range[] = [];
  let start = -1;
  let depth = 0;
  // A `<span` with no `>` after it would have the pattern read on to the end of the text, once per such `<span`:
  // past the last `>` no tag can end, so that part is not searched.
  for (const m of text.slice(0, text.lastIndexOf('>') + 1).matchAll(SPAN_TAG)) {
    const closing = m[1] === '/';
    const attributes = m[2] ?? '';
    if (start === -1) {
      if (!closing && !attributes.trimEnd().endsWith('/') && marksUntranslated(attributes)) {
        start = m.index;
        depth = 1;
      }
      continue;
    }
    if (closing) depth -= 1;
    else if (!attributes.trimEnd().endsWith('/')) depth += 1;
    if (depth === 0) {
      spans.push([start, m.index + m[0].length]);
      start = -1;
    }
  }
  return spans;
}

/** Characters as the tools count them: code points, not UTF-16 units. */
export const codePoints = (text: string) => {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
};

/**
 * The length E3 counts toward its limit, in characters (code points): untranslated spans, tags included, do not
 * count on directions that honour them (rule 5); elsewhere every character counts.
 */
export function countedLength(text: string, source: SourceCode, target: LanguageCode): number {
  if (!spansHonoured(source, target)) return codePoints(text);
  let length = 0;
  let at = 0;
  for (const [start, end] of untranslatedSpans(text)) {
    length += codePoints(text.slice(at, start));
    at = end;
  }
  return length + codePoints(text.slice(at));
}

export interface TranslationRequest {
  source: SourceCode;
  target: LanguageCode;
  text?: string;
  glossaryKey?: string;
  replaceInfo?: string;
  honorific?: boolean;
}

/** Which rule a request breaks: the sandbox answers each with its own N2MT code. */
export type TranslationRule = 'direction' | 'length' | 'glossary' | 'honorific';

export interface TranslationIssue {
  rule: TranslationRule;
  field: 'target' | 'text' | 'glossaryKey' | 'replaceInfo' | 'honorific';
  message: string;
}

/**
 * Everything the spec rules out for a request, in the order of its fields; empty when nothing is. With `auto`
 * only what no detectable source allows is refused.
 */
export function translationIssues(req: TranslationRequest): TranslationIssue[] {
  const { source, target } = req;
  const issues: TranslationIssue[] = [];
  if (source !== 'auto' && isRuledOut(source, target)) {
    const why =
      source === target
        ? 'the target must differ from the source'
        : `targets of ${source}: ${targetsOf(source).join(', ')}`;
    issues.push({
      rule: 'direction',
      field: 'target',
      message: `${source} -> ${target} is not a supported direction; ${why}`,
    });
    return issues;
  }
  if (req.text !== undefined) {
    const length = countedLength(req.text, source, target);
    if (length > TEXT_LIMIT) {
      const where = spansHonoured(source, target) ? ' outside untranslated spans' : '';
      issues.push({
        rule: 'length',
        field: 'text',
        message: `must be at most ${TEXT_LIMIT} characters${where} (got ${length})`,
      });
    }
  }
  if ((req.glossaryKey !== undefined || req.replaceInfo !== undefined) && !glossaryPossible(source, target)) {
    issues.push({
      rule: 'glossary',
      field: req.replaceInfo !== undefined ? 'replaceInfo' : 'glossaryKey',
      message: `glossaryKey and replaceInfo are not supported for ${source} -> ${target}; they are for ${GLOSSARY_PAIRS_WORDS}`,
    });
  }
  if (req.honorific === true && !honorificPossible(source, target)) {
    issues.push({
      rule: 'honorific',
      field: 'honorific',
      message: `honorific is not supported for ${source} -> ${target}; it is for ${HONORIFIC_WORDS}`,
    });
  }
  return issues;
}

export interface DirectionInfo {
  source: LanguageCode;
  target: LanguageCode;
  basis: Exclude<DirectionBasis, 'ruled out'>;
  glossaryAndReplaceInfo: boolean;
  honorific: boolean;
}

export function directionInfo(source: LanguageCode, target: LanguageCode): DirectionInfo | undefined {
  const basis = directionBasis(source, target);
  if (basis === 'ruled out') return undefined;
  return {
    source,
    target,
    basis,
    glossaryAndReplaceInfo: supportsGlossary(source, target),
    honorific: supportsHonorific(source, target),
  };
}

/** Every direction the tool sends, with its basis, sorted by source then target in LANGUAGE_CODES order. */
export function directions(): DirectionInfo[] {
  return LANGUAGE_CODES.flatMap((source) => targetsOf(source).map((target) => directionInfo(source, target)!));
}

/** How many directions the tool sends, in all and per basis. */
export function directionCounts(): { total: number } & Record<Exclude<DirectionBasis, 'ruled out'>, number> {
  const all = directions();
  const count = (basis: DirectionBasis) => all.filter((d) => d.basis === basis).length;
  return {
    total: all.length,
    documented: count('documented'),
    'documented in reverse': count('documented in reverse'),
    'not documented': count('not documented'),
  };
}

/** Which directions are refused, in words: the resource's notes and docs/tools.md say this. */
export const REFUSED_DIRECTIONS =
  'the same language as source and target, and, from a source whose directions the service documents ' +
  `(${DOCUMENTED_SOURCES.join(', ')}), a target neither documented nor documented in reverse`;

const SPAN_TAGS = '<span translate="no">…</span> / <span class="notranslate">…</span>';

/** The notes of the language-pairs resource: every field and rule in plain words, true of what the tool checks. */
export const PAIR_NOTES: readonly string[] = [
  'basis says what backs a direction; basisMeanings says each in words.',
  `Directions not listed are refused before anything is sent: ${REFUSED_DIRECTIONS}.`,
  'source may also be auto (detected by the service); the direction is then checked by the service after detection.',
  `glossaryAndReplaceInfo: glossaryKey and replaceInfo are honoured (replaceInfo wins when both are given), and so are ${SPAN_TAGS} ` +
    'tags: the text inside stays untranslated.',
  'honorific: polite forms can be asked for (honorific: true); terms that come from a glossary are not made polite.',
  `text: at most ${TEXT_LIMIT} characters per call, counted as code points. Where glossaryAndReplaceInfo is true, span-tagged ` +
    'text and its tags do not count; elsewhere every character counts, tags included. With source auto, span-tagged ' +
    'text does not count when some source the text may have supports span tags for the target.',
];
