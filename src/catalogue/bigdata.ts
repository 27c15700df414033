import * as z from 'zod';
import { maybeBoolean, maybeString } from './answers.js';
import { defineOperation } from './types.js';

export const checkAppName = defineOperation({
  id: 'E9',
  name: 'bigdata_check_app_name',
  title: 'Check a big-data app name',
  description: 'Checks that an app name is valid and free in the account.',
  service: 'bigdata',
  method: 'POST',
  path: '/api/v2/apps/checkAvailableName',
  auth: 'gateway-signature',
  envelope: 'success-flag',
  input: () =>
    z.strictObject({
      accountId: z
        .string()
        .max(22)
        .regex(/^[0-9A-Za-z]*$/, 'must be Base62 (letters and digits)')
        .describe('Account UUID in Base62'),
      name: z
        .string()
        .min(3)
        .max(15)
        .regex(
          /^[a-z0-9](?:-?[a-z0-9])*$/,
          "must be lower-case letters, digits and single '-', starting and ending with a letter or digit",
        ),
    }),
  output: () =>
    z.looseObject({
      success: maybeBoolean(),
      availableName: z.boolean(),
      message: maybeString().describe('Why, when success or availableName is false'),
    }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});
