import { MAPS_STATUS } from './maps.js';
import type { Envelope } from './types.js';

/** Where an envelope says how the call went, and its values that mean success. */
export interface EnvelopeSuccess {
  path: readonly [string, ...string[]];
  values: readonly (string | number | boolean)[];
}

/**
 * Where each envelope says how the call went, and the values that mean success (compared as text, so that 0 and '0'
 * are alike): the spec's success samples and its maps error table. Any other value is a documented failure: the
 * upstream refused the request.
 */
export const ENVELOPE_SUCCESS: Readonly<Record<Envelope, EnvelopeSuccess>> = {
  'code-zero': { path: ['code'], values: [0] },
  'code-success': { path: ['code'], values: ['SUCCESS'] },
  'maps-status': { path: ['status', 'code'], values: [MAPS_STATUS.ok.code, MAPS_STATUS.noResults.code] },
  'studio-status': { path: ['status', 'code'], values: ['20000'] },
  'success-flag': { path: ['success'], values: [true] },
};
