import { createMethodResponse } from './apigateway.js';
import { runScanner } from './datacatalog.js';
import { updateJobExecutionOptions } from './dataflow.js';
import { migrateKey } from './kms.js';
import { deleteService } from './recommendation.js';
import { updateSchema } from './search.js';

/**
 * What no tool of this server undoes, by the tool that does it: the spec offers no reverse operation (no key goes
 * back to global, nothing restores a deleted service, indexes can only be added, no method response is removed, no
 * run is stopped). An agent asked to revert a day's work must know it before it tries.
 */
export const IRREVERSIBLE: Readonly<Record<string, string>> = {
  [migrateKey.name]: 'a key migration (the global key is deleted)',
  [deleteService.name]: 'a deleted recommendation service',
  [updateSchema.name]: 'an index added to a search schema (indexes can only be added)',
  [createMethodResponse.name]: 'an added method response (no tool removes one)',
  [runScanner.name]: 'a started scanner run (no tool stops one)',
};

/** The one change here that another call can set back, and how. */
export const REVERSIBLE_BY_HAND: Readonly<Record<string, string>> = {
  [updateJobExecutionOptions.name]:
    'job execution options are set back only by editing them again with the old values (from an earlier answer ' +
    'or the user)',
};
