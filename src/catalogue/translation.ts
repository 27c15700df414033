import * as z from 'zod';
import { maybeString } from './answers.js';
import { SIMULATED_KEY, simulatedMember } from './simulated.js';
import {
  LANGUAGE_CODES,
  SOURCE_CODES,
  TEXT_LIMIT,
  isLanguage,
  spansHonoured,
  translationIssues,
  untranslatedSpans,
  type LanguageCode,
  type SourceCode,
} from './translation-rules.js';
import { defineOperation } from './types.js';

/** The note of span tags sent on a direction that does not honour them (rule 5): the answer alone says nothing. */
const spanTagsNote = (source: SourceCode, target: LanguageCode) =>
  `Span tags are not honoured for ${source} -> ${target} (spec rule 5: only on the pairs marked ` +
  'glossaryAndReplaceInfo in svc://translation/language-pairs): they were sent as plain text, so what they wrap may ' +
  'be translated and the tags may come back as literal text in translatedText.';

export const translateText = defineOperation({
  id: 'E3',
  name: 'translation_translate_text',
  title: 'Translate text',
  description:
    `Translates up to ${TEXT_LIMIT} chars; directions: svc://translation/language-pairs. glossaryKey, replaceInfo (wins) and ` +
    'span tags work on its pairs marked glossaryAndReplaceInfo: there <span translate="no"> or <span ' +
    'class="notranslate"> text stays as is, uncounted.',
  service: 'translation',
  method: 'POST',
  path: '/nmt/v1/translation',
  auth: 'app-key-upper',
  input: () =>
    z
      .strictObject({
        source: z.enum(SOURCE_CODES).describe('Source language, or auto to detect'),
        target: z.enum(LANGUAGE_CODES),
        // Required, with no minimum length in the spec: an empty text is sent, and the service decides.
        text: z.string(),
        glossaryKey: z.string().optional().describe('Glossary ID'),
        replaceInfo: z.string().optional().describe('Substitution index'),
        honorific: z.boolean().optional().meta({ description: 'Polite forms', default: false }),
      })
      .superRefine((args, ctx) => {
        for (const issue of translationIssues(args))
          ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
      }),
  output: () =>
    z.looseObject({
      message: z.looseObject({
        '@type': maybeString().describe('Envelope member, e.g. response'),
        '@service': maybeString().describe('Envelope member: the service that answered'),
        '@version': maybeString().describe('Envelope member: its version'),
        result: z.looseObject({
          srcLangType: maybeString().describe('Source language (the detected one with auto)'),
          tarLangType: maybeString(),
          translatedText: z.string(),
          [SIMULATED_KEY]: simulatedMember(),
        }),
      }),
    }),
  answerNote: (args, answer) => {
    if (args.text === undefined || args.target === undefined || untranslatedSpans(args.text).length === 0)
      return undefined;
    const detected = answer.message.result.srcLangType;
    const source = args.source === 'auto' && detected && isLanguage(detected) ? detected : args.source;
    if (source === undefined || spansHonoured(source, args.target)) return undefined;
    return spanTagsNote(source, args.target);
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});
