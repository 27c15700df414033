import * as z from 'zod';
import { maybeArray, maybeBoolean, maybeString } from './answers.js';
import { pathSegment } from './fields.js';
import { defineOperation } from './types.js';

export const getDefaultSchema = defineOperation({
  id: 'E10',
  name: 'recommendation_get_default_schema',
  title: 'Get default recommendation schema',
  description: 'Default schema (fields, types) of a dataset type; interaction means user-item history.',
  service: 'recommendation',
  method: 'GET',
  path: '/api/v1/schemas/default',
  auth: 'gateway-signature',
  input: () => z.strictObject({ datasetType: z.enum(['user', 'item', 'interaction']) }),
  output: () =>
    z.looseObject({
      datasetType: maybeString(),
      name: maybeString(),
      description: maybeString(),
      fields: z.array(
        z.looseObject({
          name: maybeString(),
          type: maybeArray(z.string()).describe('Of string, int, long, boolean, null'),
          categorical: maybeBoolean().describe('Omitted when false'),
        }),
      ),
    }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});

export const deleteService = defineOperation({
  id: 'E11',
  name: 'recommendation_delete_service',
  title: 'Delete a recommendation service',
  description: 'Deletes a recommendation service.',
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
