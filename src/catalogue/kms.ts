import * as z from 'zod';
import { maybeString } from './answers.js';
import { pathSegment } from './fields.js';
import { defineOperation } from './types.js';

/** The Regions a global key can be migrated to (E15: only Korea and Japan). */
export const KMS_REGIONS = ['KR', 'JPN'] as const;
export type KmsRegion = (typeof KMS_REGIONS)[number];

export const migrateKey = defineOperation({
  id: 'E15',
  name: 'kms_migrate_key',
  title: 'Migrate a global key to a Region',
  description:
    'Makes a global key an isolation key of the target Region and DELETES the global key. ' +
    "Fails if the Region has a key of the same name (a key's name, not its keyTag). No tool lists keys.",
  service: 'kms',
  method: 'POST',
  path: '/kms/v1/keys/{keyTag}/migrate',
  auth: 'gateway-signature',
  envelope: 'code-success',
  input: () =>
    z.strictObject({
      keyTag: pathSegment(),
      targetRegion: z.enum(KMS_REGIONS),
    }),
  output: () =>
    z.looseObject({
      code: z.string().describe('SUCCESS'),
      data: z.looseObject({ keyTag: maybeString(), targetRegion: maybeString() }),
    }),
  confirmation: {
    argument: 'keyTag',
    consequence: ({ keyTag, targetRegion }) =>
      `The global key "${keyTag}" will be converted into an isolation key usable only in the ${targetRegion} Region, and the global key will be deleted.`,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
});
