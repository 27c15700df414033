import { KMS_REGIONS, migrateKey } from '../../catalogue/kms.js';
import { badRequest, fail, notFound } from '../errors.js';
import { kmsFixtures } from '../fixtures/kms.js';
import { routeOf } from '../route-of.js';
import type { Route } from '../types.js';
import { oneOf, requireObject } from '../validate.js';

/**
 * E15. Migration deletes the global key and creates an isolation key of the same name in the target Region (its keyTag
 * is the old one plus -kr or -jpn); the answer echoes the keyTag that was migrated. Only global keys migrate: an
 * isolation key's tag, or a tag already migrated, is 404. When the target Region already holds an isolation key of the
 * same name the spec shows no error, so the sandbox answers HTTP 400 (gateway errorCode 100) saying so, and changes
 * nothing.
 */
export function kmsRoutes(): Route[] {
  const { globalKeys, isolationKeys } = kmsFixtures();
  return [
    routeOf(migrateKey, (req) => {
      const keyTag = req.params.keyTag!;
      const input = requireObject(req.body, 'request body');
      const targetRegion = oneOf(input.targetRegion, KMS_REGIONS, 'targetRegion');
      const at = globalKeys.findIndex((k) => k.keyTag === keyTag);
      const key = globalKeys[at] ?? fail(notFound(`global key ${keyTag} does not exist`));
      if (isolationKeys.some((k) => k.region === targetRegion && k.keyName === key.keyName)) {
        const reason = `an isolation key named ${key.keyName} already exists in Region ${targetRegion}`;
        fail(badRequest(`${reason}; the key was not migrated`));
      }
      globalKeys.splice(at, 1);
      const isolationTag = `${keyTag}-${targetRegion.toLowerCase()}`;
      isolationKeys.push({ keyTag: isolationTag, keyName: key.keyName, region: targetRegion });
      return { status: 200, json: { code: 'SUCCESS', data: { keyTag, targetRegion } } };
    }),
  ];
}
