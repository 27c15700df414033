import { checkAppName } from './bigdata.js';
import { createMethodResponse, listProducts } from './apigateway.js';
import { runScanner } from './datacatalog.js';
import { updateJobExecutionOptions } from './dataflow.js';
import { migrateKey } from './kms.js';
import { reverseGeocode } from './maps.js';
import { deleteService, getDefaultSchema } from './recommendation.js';
import { listTokenizerLanguages, updateSchema } from './search.js';
import { listConfigGroups, listServerImages } from './streaming.js';
import { createCompletion } from './textgen.js';
import { translateText } from './translation.js';
import type { Operation } from './types.js';

/** The fifteen operations of the spec, in its order (E1-E15). */
export const CATALOGUE: readonly Operation[] = [
  listConfigGroups,
  listServerImages,
  translateText,
  updateJobExecutionOptions,
  reverseGeocode,
  createMethodResponse,
  listProducts,
  runScanner,
  checkAppName,
  getDefaultSchema,
  deleteService,
  createCompletion,
  updateSchema,
  listTokenizerLanguages,
  migrateKey,
];
