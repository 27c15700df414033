import { apigatewayRoutes } from './services/apigateway.js';
import { bigdataRoutes } from './services/bigdata.js';
import { datacatalogRoutes } from './services/datacatalog.js';
import { dataflowRoutes } from './services/dataflow.js';
import { kmsRoutes } from './services/kms.js';
import { mapsRoutes } from './services/maps.js';
import { recommendationRoutes } from './services/recommendation.js';
import { searchRoutes } from './services/search.js';
import { streamingRoutes } from './services/streaming.js';
import { textgenRoutes } from './services/textgen.js';
import { translationRoutes } from './services/translation.js';
import type { Route } from './types.js';

/** Every simulated route, with fresh state: each call seeds new fixtures. */
export function allRoutes(): Route[] {
  return [
    ...streamingRoutes(),
    ...translationRoutes(),
    ...dataflowRoutes(),
    ...mapsRoutes(),
    ...apigatewayRoutes(),
    ...datacatalogRoutes(),
    ...bigdataRoutes(),
    ...recommendationRoutes(),
    ...textgenRoutes(),
    ...searchRoutes(),
    ...kmsRoutes(),
  ];
}
