import { z } from 'zod';
import { pathSegment } from './fields.js';
import type { Operation } from './types.js';

export const TOKENIZER_LANGUAGES = [
  { language: 'chinese', type: 'hanaterm', method: 'sgmt', option: '+china +china_cn +china_tw' },
  { language: 'english', type: 'hanaterm', method: 'sgmt', option: '+english +revert' },
  { language: 'indonesian', type: 'hanaterm', method: 'sgmt', option: '+indonesian' },
  { language: 'japanese', type: 'hanaterm', method: 'sgmt', option: '+japan +josacat +eomicat' },
  { language: 'korean', type: 'hanaterm', method: 'sgmt', option: '+korea +josacat +eomicat' },
  { language: 'thai', type: 'hanaterm', method: 'sgmt', option: '+thai' },
] as const;

const named = { name: z.string().min(1) };

/** The spec shows part of the schema; the rest passes through untouched. */
const schemaDocument = z.looseObject({
  primarySectionName: z.string().min(1).describe('Name of the primary section'),
  sections: z
    .array(z.looseObject({ ...named, docProperties: z.array(z.looseObject({ ...named, type: z.string() })) }))
    .describe('Sections, each with its document properties (type string)'),
  indexes: z.array(
    z.looseObject({
      ...named,
      documentTermWeight: z.string().optional(),
      buildInfos: z.array(
        z.looseObject({
          ...named,
          sections: z.array(z.string()),
          sectionTermWeight: z.string().optional(),
          indexProcessors: z.array(z.looseObject({ type: z.string(), method: z.string(), option: z.string() })),
        }),
      ),
    }),
  ).describe('Indexes, each with its build infos (sections, index processors); existing ones must stay unchanged'),
});

export const updateSchema: Operation = {
  id: 'E13',
  name: 'search_update_schema',
  title: 'Replace a search domain schema',
  description:
    "Replaces a search domain's schema. Existing indexes must be kept unchanged: indexes can only be added. " +
    'Index options per language: svc://search/tokenizer-languages.',
  service: 'search',
  method: 'PUT',
  path: '/CloudSearch/real/v1/domain/{name}/schema',
  auth: 'gateway-signature',
  input: z.strictObject({
    name: pathSegment('Domain name'),
    document: schemaDocument.describe('The whole new schema: sections, and indexes (existing ones unchanged, new ones added)'),
  }),
  output: z.looseObject({ result: z.string().optional() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
};

export const listTokenizerLanguages: Operation = {
  id: 'E14',
  name: 'search_list_tokenizer_languages',
  title: 'List search tokenizer languages',
  description: 'Lists the languages of morphological analysis with their index processor type, method and option.',
  service: 'search',
  method: 'GET',
  path: '/CloudSearch/real/v1/tokenizer',
  auth: 'gateway-signature',
  input: z.strictObject({}),
  arrayResultKey: 'languages',
  output: z.looseObject({
    languages: z.array(
      z.looseObject({ language: z.string(), type: z.string(), method: z.string(), option: z.string() }),
    ),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
};
