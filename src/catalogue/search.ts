import * as z from 'zod';
import { list, maybeString } from './answers.js';
import { SERVER_LIMITS, pathSegment } from './fields.js';
import { defineOperation } from './types.js';

/**
 * The spec asks only for "a valid schema" (checked by the service's validate-schema operation) and shows part of it,
 * so the tool requires an object, gives the members the spec shows their types, and states their shape in words;
 * none is required here: the search service validates the whole document.
 */
const schemaDocument = () =>
  z.looseObject({
    primarySectionName: z.string().optional().describe('Primary section name'),
    sections: z.array(z.looseObject({})).optional().describe('[{name, docProperties: [{type, name}]}]'),
    indexes: z
      .array(z.looseObject({}))
      .optional()
      .describe(
        '[{name, documentTermWeight, buildInfos: [{name, sections: [section names], sectionTermWeight, indexProcessors: [{type, method, option}]}]}]',
      ),
  });

export const updateSchema = defineOperation({
  id: 'E13',
  name: 'search_update_schema',
  title: 'Replace a search domain schema',
  description:
    "Replaces a search domain's whole schema; indexes can only be added. No tool here reads the current schema: ask " +
    'the user, never guess. Index options: svc://search/tokenizer-languages.',
  service: 'search',
  method: 'PUT',
  path: '/CloudSearch/real/v1/domain/{name}/schema',
  auth: 'gateway-signature',
  input: () =>
    z.strictObject({
      name: pathSegment('Domain name'),
      document: schemaDocument()
        .refine(
          (doc) => Buffer.byteLength(JSON.stringify(doc), 'utf8') <= SERVER_LIMITS.documentBytes,
          `must be at most ${SERVER_LIMITS.documentBytes} bytes as JSON (this server's limit)`,
        )
        .describe('The whole new schema'),
    }),
  output: () => z.looseObject({ result: z.string().describe('Success text') }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});

export const listTokenizerLanguages = defineOperation({
  id: 'E14',
  name: 'search_list_tokenizer_languages',
  title: 'List search tokenizer languages',
  description: 'Lists morphological-analysis languages and their index processor settings.',
  service: 'search',
  method: 'GET',
  path: '/CloudSearch/real/v1/tokenizer',
  auth: 'gateway-signature',
  input: () => z.strictObject({}),
  arrayResultKey: 'languages',
  output: () =>
    z.looseObject({
      languages: list(
        z.looseObject({ language: maybeString(), type: maybeString(), method: maybeString(), option: maybeString() }),
      ),
    }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});
