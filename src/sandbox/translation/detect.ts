import type { LanguageCode } from '../../catalogue/translation-rules.js';
import { findPhrase } from './phrasebook.js';

const HANGUL = /\p{Script=Hangul}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/u;
const THAI = /\p{Script=Thai}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
/** Letters only Vietnamese uses among the supported Latin-script languages. */
const VIETNAMESE = /[đơưĐƠƯảẩẫậắằẳẵặẻẽẹềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/u;
const LATIN_SOURCES: readonly LanguageCode[] = ['en', 'fr', 'es', 'de', 'it', 'id', 'vi'];

/**
 * `source: auto`, decided by script: Hangul -> ko; kana -> ja; Han only -> zh-CN; Thai -> th; Cyrillic -> ru;
 * Latin -> the language of a phrasebook sentence it matches, vi when it has letters only Vietnamese uses,
 * otherwise en. Text with no letters at all is taken as en.
 */
export function detectLanguage(text: string): LanguageCode {
  if (HANGUL.test(text)) return 'ko';
  if (KANA.test(text)) return 'ja';
  if (HAN.test(text)) return 'zh-CN';
  if (THAI.test(text)) return 'th';
  if (CYRILLIC.test(text)) return 'ru';
  for (const language of LATIN_SOURCES) {
    if (findPhrase(text, language)) return language;
  }
  if (VIETNAMESE.test(text)) return 'vi';
  return 'en';
}
