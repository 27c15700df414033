/** resolveTarget: the origin and credential of an operation, or [not_configured] naming what to set. */
import { describe, expect, it } from 'vitest';
import { CallFailure } from '../../src/failures.js';
import { SETTING_WORDS } from '../../src/config/index.js';
import { resolveTarget } from '../../src/upstream/credentials.js';

/** The server's words: its variables and its flag. */
const words = SETTING_WORDS;
const nothing = { serviceUrls: {}, credentials: { appKeys: {} }, words };

function failure(run: () => unknown): CallFailure {
  try {
    run();
  } catch (error) {
    if (error instanceof CallFailure) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('not configured', () => {
  it.each([
    ['search', 'gateway-signature', 'set SVC_SEARCH_URL or SVC_GATEWAY_URL, and SVC_ACCESS_KEY and SVC_SECRET_KEY in'],
    [
      'maps',
      'app-key-lower',
      'set SVC_MAPS_URL or SVC_GATEWAY_URL, and SVC_CLIENT_ID and SVC_CLIENT_SECRET (or SVC_MAPS_CLIENT_ID and SVC_MAPS_CLIENT_SECRET) in',
    ],
    [
      'translation',
      'app-key-upper',
      'and SVC_CLIENT_ID and SVC_CLIENT_SECRET (or SVC_TRANSLATION_CLIENT_ID and SVC_TRANSLATION_CLIENT_SECRET) in',
    ],
    [
      'textgen',
      'studio',
      'set SVC_TEXTGEN_URL or SVC_GATEWAY_URL, and SVC_STUDIO_API_KEY and SVC_STUDIO_GATEWAY_KEY in',
    ],
  ] as const)('%s (%s) names the variables to set', (service, scheme, words) => {
    const error = failure(() => resolveTarget(nothing, service, scheme));
    expect(error.code).toBe('not_configured');
    expect(error.message).toMatch(new RegExp(`^the ${service} service is not configured: set `));
    expect(error.message).toContain(words);
  });

  it('names only what is missing', () => {
    const error = failure(() =>
      resolveTarget(
        { serviceUrls: { kms: 'https://gw.example.com' }, credentials: { appKeys: {} }, words },
        'kms',
        'gateway-signature',
      ),
    );
    expect(error.message).toBe(
      "the kms service is not configured: set SVC_ACCESS_KEY and SVC_SECRET_KEY in the server's environment " +
        '(or start the server with --sandbox to try it against the embedded simulator)',
    );
  });

  it('speaks the words it is given: the client names no variable or flag of its own', () => {
    const own = {
      timeout: 'the timeout',
      maxResponseBytes: 'the answer limit',
      serviceUrl: (service: string) => `the ${service} URL`,
      keys: (scheme: string) => `the ${scheme} keys`,
    };
    const error = failure(() =>
      resolveTarget({ serviceUrls: {}, credentials: { appKeys: {} }, words: own }, 'kms', 'gateway-signature'),
    );
    expect(error.message).toBe(
      "the kms service is not configured: set the kms URL, and the gateway-signature keys in the server's environment",
    );
  });
});
