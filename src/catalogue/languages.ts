/**
 * Translation reference data from the spec (E3), used by the tool's input checks, the sandbox and the
 * `svc://translation/language-pairs` resource. The spec's table lists each pair once; every pair works in
 * both directions (DESIGN.md, point 1).
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

/** The spec's direction table, as written (source -> targets). */
const TABLE: Record<string, readonly LanguageCode[]> = {
  ko: ['en', 'ja', 'zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr', 'es', 'ru', 'de', 'it'],
  en: ['ko', 'ja', 'zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr', 'es', 'ru', 'de'],
  ja: ['zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr'],
  'zh-CN': ['zh-TW'],
};

/** Rule 3: glossaryKey / replaceInfo (and span tags, rule 5), both directions. */
const GLOSSARY_TABLE: Record<string, readonly LanguageCode[]> = {
  ko: ['en', 'ja', 'zh-CN', 'zh-TW', 'fr'],
  en: ['ja', 'zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr'],
  ja: ['zh-CN', 'zh-TW'],
};

/** Rule 4: honorific, one direction each (target is Korean or Japanese). */
const HONORIFIC: readonly (readonly [LanguageCode, LanguageCode])[] = [
  ['en', 'ko'],
  ['ja', 'ko'],
  ['zh-CN', 'ko'],
  ['zh-TW', 'ko'],
  ['ko', 'ja'],
  ['en', 'ja'],
  ['zh-CN', 'ja'],
  ['zh-TW', 'ja'],
];

function bothWays(table: Record<string, readonly LanguageCode[]>): Set<string> {
  const set = new Set<string>();
  for (const [source, targets] of Object.entries(table)) {
    for (const target of targets) {
      set.add(`${source}>${target}`);
      set.add(`${target}>${source}`);
    }
  }
  return set;
}

const PAIRS = bothWays(TABLE);
const GLOSSARY_PAIRS = bothWays(GLOSSARY_TABLE);
const HONORIFIC_PAIRS = new Set(HONORIFIC.map(([s, t]) => `${s}>${t}`));

export const isSupportedPair = (source: string, target: string) => PAIRS.has(`${source}>${target}`);
export const supportsGlossary = (source: string, target: string) => GLOSSARY_PAIRS.has(`${source}>${target}`);
export const supportsHonorific = (source: string, target: string) => HONORIFIC_PAIRS.has(`${source}>${target}`);

/** Targets reachable from a source, in the order of LANGUAGE_CODES; for `auto`, every language. */
export function targetsOf(source: string): LanguageCode[] {
  if (source === 'auto') return [...LANGUAGE_CODES];
  return LANGUAGE_CODES.filter((target) => isSupportedPair(source, target));
}

export interface LanguagePair {
  source: LanguageCode;
  target: LanguageCode;
  glossaryAndReplaceInfo: boolean;
  honorific: boolean;
}

/** Every supported direction, sorted by source then target in LANGUAGE_CODES order. */
export function languagePairs(): LanguagePair[] {
  return LANGUAGE_CODES.flatMap((source) =>
    targetsOf(source).map((target) => ({
      source,
      target,
      glossaryAndReplaceInfo: supportsGlossary(source, target),
      honorific: supportsHonorific(source, target),
    })),
  );
}

/**
 * Length that counts toward the 5000-character limit: text inside
 * `<span translate="no">…</span>` / `<span class="notranslate">…</span>` is not counted, nor are the tags.
 */
export const UNTRANSLATED_SPAN = /<span\s+(?:translate\s*=\s*["']no["']|class\s*=\s*["']notranslate["'])\s*>[\s\S]*?<\/span>/gi;
export function countedLength(text: string): number {
  return [...text.replace(UNTRANSLATED_SPAN, '')].length;
}

/** Auto detection is done upstream; the pair rules can only be checked when the source is explicit. */
export const TEXT_LIMIT = 5000;
