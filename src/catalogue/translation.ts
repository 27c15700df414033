import * as z from 'zod';
import { maybeString } from './answers.js';
import { LANGUAGE_CODES, SOURCE_CODES, translationIssues } from './translation-rules.js';
import { defineOperation } from './types.js';
import { TEXT_LIMIT } from './translation-rules.js';

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
        result: z.looseObject({
          srcLangType: maybeString(),
          tarLangType: maybeString(),
          translatedText: z.string(),
        }),
      }),
    }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});
