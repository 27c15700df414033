import { SCANNER_STARTING, runScanner } from '../../catalogue/datacatalog.js';
import { fail, notFound } from '../errors.js';
import { datacatalogFixtures } from '../fixtures/datacatalog.js';
import { kstIso } from '../time.js';
import { routeOf } from '../route-of.js';
import type { Route } from '../types.js';
import { pathInt } from '../validate.js';

/**
 * E8. Running a scanner puts it in SCANNER_STARTING whatever its state, a second run while it is starting
 * included (the spec names no state that refuses a run, so the sandbox never refuses one); each run counts.
 */
export function datacatalogRoutes(): Route[] {
  const catalogs = datacatalogFixtures();
  return [
    routeOf(runScanner, (req, ctx) => {
      const catalogId = pathInt(req.params, 'catalogId');
      const scannerId = pathInt(req.params, 'scannerId');
      const catalog =
        catalogs.find((c) => c.catalogId === catalogId) ?? fail(notFound(`catalog ${catalogId} does not exist`));
      const scanner =
        catalog.scanners.find((s) => s.scannerId === scannerId) ??
        fail(notFound(`scanner ${scannerId} does not exist in catalog ${catalogId}`));
      scanner.status = SCANNER_STARTING;
      scanner.runCount += 1;
      scanner.lastRunStartedAt = kstIso(ctx.now());
      return { status: 200, json: { scannerId: scanner.scannerId, name: scanner.name, status: scanner.status } };
    }),
  ];
}
