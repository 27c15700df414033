import {
  LANGUAGE_CODES,
  isLanguage,
  spansHonoured,
  translationIssues,
  type LanguageCode,
  type TranslationRule,
} from '../../catalogue/translation-rules.js';
import type { SandboxResponse } from '../types.js';
import { detectLanguage } from './detect.js';
import { N2MT, n2mtError } from './errors.js';
import { SANDBOX_GLOSSARIES, glossarySubstitutions, parseReplaceInfo, type Substitution } from './glossary.js';

/** A request the sandbox will translate, after every check of the spec's rules. */
export interface TranslationJob {
  source: LanguageCode;
  target: LanguageCode;
  text: string;
  honorific: boolean;
  substitutions: Substitution[];
  keepSpans: boolean;
}

const N2MT_FOR_RULE: Record<TranslationRule, (typeof N2MT)[keyof typeof N2MT]> = {
  direction: N2MT.pairUnsupported,
  length: N2MT.textTooLong,
  glossary: N2MT.glossaryPairUnsupported,
  honorific: N2MT.honorificUnsupported,
};

type Check<T> = { ok: true; value: T } | { ok: false; response: SandboxResponse };
const ok = <T>(value: T): Check<T> => ({ ok: true, value });
const bad = <T>(...args: Parameters<typeof n2mtError>): Check<T> => ({ ok: false, response: n2mtError(...args) });

/** A string field; '' counts as absent. Form bodies deliver strings, JSON bodies may deliver anything. */
function stringField(body: Record<string, unknown>, name: string): Check<string | undefined> {
  const value = body[name];
  if (value === undefined || value === null || value === '') return ok(undefined);
  if (typeof value !== 'string') return bad(N2MT.other, `${name} must be a string`);
  return ok(value);
}

/** JSON boolean, or the strings 'true'/'false' of a form body. */
function booleanField(body: Record<string, unknown>, name: string): Check<boolean> {
  const value = body[name];
  if (value === undefined || value === null || value === '') return ok(false);
  if (value === true || value === 'true') return ok(true);
  if (value === false || value === 'false') return ok(false);
  return bad(N2MT.other, `${name} must be true or false`);
}

/** Validates an E3 body (JSON object or form fields) in the order the fields are listed in the spec. */
export function parseTranslationRequest(body: unknown): Check<TranslationJob> {
  let fields: Record<string, unknown> = {};
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) fields = body as Record<string, unknown>;
  else if (body !== undefined) return bad(N2MT.other, 'the body must be a JSON object or form fields');

  const source = stringField(fields, 'source');
  if (!source.ok) return source;
  if (source.value === undefined) return bad(N2MT.sourceMissing, 'source is required');
  const sourceValue = source.value;
  if (sourceValue !== 'auto' && !isLanguage(sourceValue))
    return bad(
      N2MT.sourceUnsupported,
      `source '${sourceValue}' is not supported; use auto or one of ${LANGUAGE_CODES.join(', ')}`,
    );

  const target = stringField(fields, 'target');
  if (!target.ok) return target;
  if (target.value === undefined) return bad(N2MT.targetInvalid, 'target is required');
  const targetValue = target.value;
  if (!isLanguage(targetValue))
    return bad(N2MT.targetInvalid, `target '${targetValue}' is not supported; use one of ${LANGUAGE_CODES.join(', ')}`);

  // Required, with no minimum length in the spec: an empty text is translated to an empty text.
  const text = fields.text === '' ? ok('') : stringField(fields, 'text');
  if (!text.ok) return text;
  if (text.value === undefined) return bad(N2MT.textMissing, 'text is required');
  const textValue = text.value;

  const glossaryKey = stringField(fields, 'glossaryKey');
  if (!glossaryKey.ok) return glossaryKey;
  const replaceInfo = stringField(fields, 'replaceInfo');
  if (!replaceInfo.ok) return replaceInfo;
  const honorific = booleanField(fields, 'honorific');
  if (!honorific.ok) return honorific;

  // The rules are the spec's (translation-rules.ts), checked on the detected language when the source is auto.
  const resolved = sourceValue === 'auto' ? detectLanguage(textValue) : sourceValue;
  const detected = sourceValue === 'auto' ? ' (source detected from the text)' : '';
  const issues = translationIssues({
    source: resolved,
    target: targetValue,
    text: textValue,
    glossaryKey: glossaryKey.value,
    replaceInfo: replaceInfo.value,
    honorific: honorific.value,
  });
  const first = issues[0];
  if (first) return bad(N2MT_FOR_RULE[first.rule], `${first.field}: ${first.message}${detected}`);

  let substitutions: Substitution[] = [];
  if (glossaryKey.value !== undefined || replaceInfo.value !== undefined) {
    // Rule 1: replaceInfo has priority over glossaryKey; the glossary is then not used (nor looked up).
    if (replaceInfo.value !== undefined) {
      const parsed = parseReplaceInfo(replaceInfo.value);
      if (typeof parsed === 'string') return bad(N2MT.glossaryInvalid, parsed);
      substitutions = parsed;
    } else if (glossaryKey.value !== undefined) {
      const terms = SANDBOX_GLOSSARIES[glossaryKey.value];
      if (!terms)
        return bad(
          N2MT.glossaryInvalid,
          `glossaryKey '${glossaryKey.value}' is unknown; the sandbox knows ${Object.keys(SANDBOX_GLOSSARIES).join(', ')}`,
        );
      substitutions = glossarySubstitutions(terms, resolved, targetValue);
    }
  }

  return ok({
    source: resolved,
    target: targetValue,
    text: textValue,
    honorific: honorific.value,
    substitutions,
    keepSpans: spansHonoured(resolved, targetValue),
  });
}
