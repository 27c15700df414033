import { z } from 'zod';
import {
  LANGUAGE_CODES,
  SOURCE_CODES,
  TEXT_LIMIT,
  countedLength,
  isSupportedPair,
  supportsGlossary,
  supportsHonorific,
  targetsOf,
} from './languages.js';
import type { Operation } from './types.js';

export const translateText: Operation = {
  id: 'E3',
  name: 'translation_translate_text',
  title: 'Translate text',
  description:
    'Translates text: max 5000 chars, not counting <span translate="no"> or <span class="notranslate"> text (kept as is). ' +
    'Pairs with glossary/honorific support: svc://translation/language-pairs. replaceInfo overrides glossaryKey.',
  service: 'translation',
  method: 'POST',
  path: '/nmt/v1/translation',
  auth: 'app-key-upper',
  input: z
    .strictObject({
      source: z.enum(SOURCE_CODES).describe('Source language, or auto to detect'),
      target: z.enum(LANGUAGE_CODES),
      text: z.string().min(1).describe('Text to translate'),
      glossaryKey: z.string().min(1).optional().describe('Glossary ID'),
      replaceInfo: z.string().min(1).optional().describe('Substitution index'),
      honorific: z.boolean().optional().meta({ description: 'Polite forms', default: false }),
    })
    .superRefine((args, ctx) => {
      const { source, target } = args;
      // Rule 5: span tags (and their text) are not counted, on the pairs that support them; with auto the
      // pair is unknown here, so the lenient count applies and the upstream has the last word.
      const spansApply = source === 'auto' || supportsGlossary(source, target);
      const length = spansApply ? countedLength(args.text) : [...args.text].length;
      if (length > TEXT_LIMIT) {
        ctx.addIssue({
          code: 'custom',
          path: ['text'],
          message: `must be at most ${TEXT_LIMIT} characters${spansApply ? ' outside untranslated spans' : ''} (got ${length})`,
        });
      }
      if (source !== 'auto' && !isSupportedPair(source, target)) {
        ctx.addIssue({
          code: 'custom',
          path: ['target'],
          message: `${source} -> ${target} is not a supported direction; targets of ${source}: ${targetsOf(source).join(', ')}`,
        });
        return;
      }
      // With source auto the pair is only known upstream; check what can be known from the target alone.
      const sources = source === 'auto' ? LANGUAGE_CODES.filter((s) => isSupportedPair(s, target)) : [source];
      if ((args.glossaryKey || args.replaceInfo) && !sources.some((s) => supportsGlossary(s, target))) {
        ctx.addIssue({
          code: 'custom',
          path: [args.replaceInfo ? 'replaceInfo' : 'glossaryKey'],
          message: `glossaryKey/replaceInfo are not supported for ${source} -> ${target}`,
        });
      }
      if (args.honorific && !sources.some((s) => supportsHonorific(s, target))) {
        ctx.addIssue({
          code: 'custom',
          path: ['honorific'],
          message: `honorific is not supported for ${source} -> ${target} (only en/ja/zh-CN/zh-TW -> ko and ko/en/zh-CN/zh-TW -> ja)`,
        });
      }
    }),
  output: z.looseObject({
    message: z.looseObject({
      result: z.looseObject({
        srcLangType: z.string().optional(),
        tarLangType: z.string().optional(),
        translatedText: z.string(),
      }),
    }),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
};
