import {
  LANGUAGE_CODES,
  LANGUAGE_NAMES,
  SOURCE_CODES,
  directionBasis,
  isLanguage,
  targetsOf,
  type LanguageCode,
} from '../catalogue/translation-rules.js';

/**
 * Completion of language codes (MCP completion/complete), for prompt arguments and the language-pairs resource
 * template. Values are always valid codes; what was typed matches a code or a language name by prefix, ignoring
 * case ("fr", "Fre" and "french" all give "fr").
 */

function matching(candidates: readonly string[], typed: string): string[] {
  const prefix = typed.trim().toLowerCase();
  if (prefix === '') return [...candidates];
  return candidates.filter((code) => {
    const name = isLanguage(code) ? LANGUAGE_NAMES[code].toLowerCase() : '';
    return code.toLowerCase().startsWith(prefix) || name.startsWith(prefix);
  });
}

/** Source languages of a translation: `auto` and the thirteen codes. */
export const completeSource = (typed: string): string[] => matching(SOURCE_CODES, typed);

/** Source languages that have a table of targets (no `auto`): the resource template's `source`. */
export const completeLanguage = (typed: string): string[] => matching(LANGUAGE_CODES, typed);

/**
 * Target languages: those the tool sends for the chosen source (translation-rules.ts), the spec's own first.
 * With no source, `auto` or an unknown source, every language can be a target.
 */
export function completeTarget(typed: string, context?: { arguments?: Record<string, string> }): string[] {
  const source = context?.arguments?.source?.trim();
  return matching(source && isLanguage(source) ? documentedFirst(source) : LANGUAGE_CODES, typed);
}

/** Targets of one fixed source (e.g. Korean addresses), for arguments whose source is implied. */
export const completeTargetOf =
  (source: LanguageCode) =>
  (typed: string): string[] =>
    matching(documentedFirst(source), typed);

/** The targets a source may be sent with, those the spec documents first. */
const documentedFirst = (source: LanguageCode): LanguageCode[] => {
  const targets = targetsOf(source);
  const documented = (t: LanguageCode) => directionBasis(source, t) !== 'not documented';
  return [...targets.filter(documented), ...targets.filter((t) => !documented(t))];
};
