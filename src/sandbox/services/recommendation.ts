import { DATASET_TYPES, deleteService, getDefaultSchema } from '../../catalogue/recommendation.js';
import { fail, notFound } from '../errors.js';
import { defaultSchemas, recommendationServices } from '../fixtures/recommendation.js';
import { routeOf } from '../route-of.js';
import type { Route } from '../types.js';
import { oneOf } from '../validate.js';

/** E10 (read-only) and E11 (deletes for good: a second delete is 404 with errorCode 300). */
export function recommendationRoutes(): Route[] {
  const schemas = defaultSchemas();
  const services = new Map(recommendationServices().map((s) => [s.serviceId, s]));
  return [
    routeOf(getDefaultSchema, (req) => {
      const datasetType = oneOf(req.query.get('datasetType') ?? undefined, DATASET_TYPES, 'datasetType');
      return { status: 200, json: schemas[datasetType] };
    }),
    routeOf(deleteService, (req) => {
      const serviceId = req.params.serviceId!;
      const service = services.get(serviceId) ?? fail(notFound(`service ${serviceId} does not exist`));
      services.delete(serviceId);
      return { status: 200, json: { result: `Service ${service.serviceId} (${service.name}) has been deleted.` } };
    }),
  ];
}
