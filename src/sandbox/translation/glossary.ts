import type { LanguageCode } from '../../catalogue/translation-rules.js';

/** One term of a glossary in the languages it is defined for (rule-3 languages only). */
export type GlossaryTerm = Partial<Record<LanguageCode, string>>;

/**
 * Glossaries known to the sandbox, by `glossaryKey`. Any other key is an error (N2MT07), as an unknown glossary
 * ID would be upstream.
 */
export const SANDBOX_GLOSSARIES: Readonly<Record<string, readonly GlossaryTerm[]>> = {
  'sandbox-glossary': [
    {
      ko: '샌드박스 클라우드',
      en: 'Sandbox Cloud',
      ja: 'サンドボックスクラウド',
      'zh-CN': '沙盒云',
      'zh-TW': '沙盒雲',
      fr: 'Sandbox Cloud',
      vi: 'Sandbox Cloud',
      th: 'Sandbox Cloud',
      id: 'Sandbox Cloud',
    },
    {
      ko: 'API 게이트웨이',
      en: 'API gateway',
      ja: 'APIゲートウェイ',
      'zh-CN': 'API网关',
      'zh-TW': 'API閘道',
      fr: 'passerelle API',
      vi: 'cổng API',
      th: 'เกตเวย์ API',
      id: 'gateway API',
    },
    {
      ko: '오브젝트 스토리지',
      en: 'object storage',
      ja: 'オブジェクトストレージ',
      'zh-CN': '对象存储',
      'zh-TW': '物件儲存',
      fr: 'stockage objet',
      vi: 'lưu trữ đối tượng',
      th: 'ที่เก็บอ็อบเจ็กต์',
      id: 'penyimpanan objek',
    },
  ],
};

/** One substitution: occurrences of `from` (case-insensitive) become `to`. */
export interface Substitution {
  from: string;
  to: string;
}

export function glossarySubstitutions(
  terms: readonly GlossaryTerm[],
  source: LanguageCode,
  target: LanguageCode,
): Substitution[] {
  const out: Substitution[] = [];
  for (const term of terms) {
    const from = term[source];
    const to = term[target];
    if (from && to) out.push({ from, to });
  }
  return out;
}

/**
 * `replaceInfo` (its format is not in the spec). The sandbox accepts JSON: an array of
 * `{"str": "<source text>", "replaceStr": "<wanted translation>"}` objects, one such object, or an object
 * `{"replaceInfo": [...]}`. An entry without `replaceStr` keeps `str` as it is (the spec: "when str is not set
 * the original text is returned"). Returns an error message when the value is not in this format.
 */
export function parseReplaceInfo(raw: string): Substitution[] | string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return 'replaceInfo must be JSON: [{"str":"...","replaceStr":"..."}]';
  }
  if (isRecord(value) && Array.isArray(value.replaceInfo)) value = value.replaceInfo;
  const entries = Array.isArray(value) ? value : [value];
  const out: Substitution[] = [];
  for (const entry of entries) {
    if (!isRecord(entry) || typeof entry.str !== 'string' || entry.str === '')
      return 'every replaceInfo entry needs a non-empty string "str"';
    if (entry.replaceStr !== undefined && typeof entry.replaceStr !== 'string')
      return 'replaceInfo "replaceStr" must be a string';
    out.push({ from: entry.str, to: typeof entry.replaceStr === 'string' ? entry.replaceStr : entry.str });
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
const CJK_OR_KANA_OR_HANGUL = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Word boundaries only make sense for space-separated scripts. */
function termPattern(term: string): string {
  const first = term.at(0) ?? '';
  const last = term.at(-1) ?? '';
  const before = WORD_CHAR.test(first) && !CJK_OR_KANA_OR_HANGUL.test(first) ? '(?<![\\p{L}\\p{N}])' : '';
  const after = WORD_CHAR.test(last) && !CJK_OR_KANA_OR_HANGUL.test(last) ? '(?![\\p{L}\\p{N}])' : '';
  return `${before}${escape(term)}${after}`;
}

/** Applies substitutions in one pass (a replacement is never replaced again); the longest term wins. */
export function applySubstitutions(text: string, substitutions: readonly Substitution[]): string {
  if (substitutions.length === 0) return text;
  const sorted = [...substitutions].sort((a, b) => b.from.length - a.from.length);
  const byKey = new Map<string, string>();
  for (const s of sorted) {
    const key = s.from.toLowerCase();
    if (!byKey.has(key)) byKey.set(key, s.to);
  }
  const pattern = new RegExp(sorted.map((s) => termPattern(s.from)).join('|'), 'giu');
  return text.replace(pattern, (match) => byKey.get(match.toLowerCase()) ?? match);
}
