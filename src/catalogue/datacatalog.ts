import * as z from 'zod';
import { maybeInteger, maybeString } from './answers.js';
import { defineOperation } from './types.js';

/** The scanner state the spec gives: the one a run moves a scanner to (the others are not shown). */
export const SCANNER_STARTING = 'SCANNER_STARTING';

export const runScanner = defineOperation({
  id: 'E8',
  name: 'datacatalog_run_scanner',
  title: 'Run a data-catalog scanner',
  description: 'Starts a new run of a data-catalog scanner on every call. No tool lists catalogs or scanners.',
  service: 'datacatalog',
  method: 'PUT',
  path: '/api/v1/catalogs/{catalogId}/scanners/{scannerId}/run-scanner',
  auth: 'gateway-signature',
  input: () =>
    z.strictObject({
      // Integer, as the spec says: it sets no range, so none is checked here.
      catalogId: z.int(),
      scannerId: z.int(),
    }),
  output: () =>
    z.looseObject({
      scannerId: maybeInteger(),
      name: maybeString(),
      status: z.string().describe(`${SCANNER_STARTING} once the run starts`),
    }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
});
