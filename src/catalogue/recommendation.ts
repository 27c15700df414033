import * as z from 'zod';
import { list, maybeArray, maybeBoolean, maybeString } from './answers.js';
import { pathSegment } from './fields.js';
import { defineOperation } from './types.js';

/** The spec's dataset types of E10, and the data types a schema field may have. */
export const DATASET_TYPES = ['user', 'item', 'interaction'] as const;
export type DatasetType = (typeof DATASET_TYPES)[number];
const FIELD_TYPES = ['string', 'int', 'long', 'boolean', 'null'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const getDefaultSchema = defineOperation({
  id: 'E10',
  name: 'recommendation_get_default_schema',
  title: 'Get default recommendation schema',
  description:
    'Default schema (fields, types) of a dataset type; interaction means user-item history. Required fields: not in ' +
    'the spec.',
  service: 'recommendation',
  method: 'GET',
  path: '/api/v1/schemas/default',
  auth: 'gateway-signature',
  input: () => z.strictObject({ datasetType: z.enum(DATASET_TYPES) }),
  output: () =>
    z.looseObject({
      datasetType: maybeString(),
      name: maybeString(),
      description: maybeString(),
      fields: list(
        z.looseObject({
          name: maybeString(),
          type: maybeArray(z.string()).describe(`Of ${FIELD_TYPES.join(', ')}; with null, a value may be null`),
          categorical: maybeBoolean().describe('Omitted when false'),
        }),
      ).describe('The spec marks none of them required'),
    }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});

export const deleteService = defineOperation({
  id: 'E11',
  name: 'recommendation_delete_service',
  title: 'Delete a recommendation service',
  description: 'Deletes a recommendation service. No tool lists services.',
  service: 'recommendation',
  method: 'DELETE',
  path: '/api/v1/services/{serviceId}',
  auth: 'gateway-signature',
  input: () => z.strictObject({ serviceId: pathSegment() }),
  confirmation: {
    argument: 'serviceId',
    consequence: ({ serviceId }) => `The recommendation service "${serviceId}" will be deleted.`,
  },
  output: () => z.looseObject({ result: z.string().describe('Result message') }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
});
