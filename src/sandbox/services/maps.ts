import { MAPS_STATUS, reverseGeocode as reverseGeocodeOp } from '../../catalogue/maps.js';
import { routeOf } from '../route-of.js';
import type { Route, SandboxRequest, SandboxResponse } from '../types.js';
import { createCrsConverter, type CrsConverter } from '../maps/crs.js';
import { findPlace, GAZETTEER } from '../maps/gazetteer.js';
import { parseGeocodeQuery, type Rendering } from '../maps/params.js';
import { buildResults } from '../maps/results.js';
import { toXml } from '../maps/xml.js';

/**
 * E5, reverse geocoding: `GET /map-reversegeocode/v2/gc` with the lower-case application key pair (checked by
 * http-server.ts before the handler runs). Status codes as the spec's maps table: 0 ok, 3 no results (HTTP 200); 100
 * invalid request (HTTP 400); 900 unknown error (HTTP 500). Answers, errors included, come in the format asked for: XML
 * by default, JSON with output=json, JSONP with output=json&callback=name.
 */
export function mapsRoutes(): Route[] {
  const crs = createCrsConverter();
  return [routeOf(reverseGeocodeOp, (req) => reverseGeocode(req, crs))];
}

/** A `status` of the spec's maps table (catalogue), with the sandbox's message. */
const status = ({ code, name }: { code: number; name: string }, message: string) => ({ code, name, message });
const STATUS = {
  ok: status(MAPS_STATUS.ok, 'done'),
  noResults: status(
    MAPS_STATUS.noResults,
    `no results for these coordinates (the sandbox gazetteer knows ${GAZETTEER.length} places in Korea; the sea has none)`,
  ),
  // Rule 1: the place is known, but has no address of the kinds asked for; its dong would have been answered.
  noAddress: status(
    MAPS_STATUS.noResults,
    'no land-lot or road address here (near coasts and in new neighbourhoods there may be none): ask for ' +
      'legalcode/admcode to get the dong',
  ),
  invalid: (message: string) => status(MAPS_STATUS.invalidRequest, message),
  unknown: (message: string) => status(MAPS_STATUS.unknownError, message),
};

function reverseGeocode(req: SandboxRequest, crs: CrsConverter): SandboxResponse {
  const parsed = parseGeocodeQuery(req.query);
  if (!parsed.ok)
    return render(MAPS_STATUS.invalidRequest.http, { status: STATUS.invalid(parsed.message) }, parsed.rendering);
  const { query, rendering } = parsed;
  try {
    const [lon, lat] = crs.toWgs84(query.sourcecrs, query.coords);
    if (!Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lon) > 180 || Math.abs(lat) > 90)
      return render(
        MAPS_STATUS.invalidRequest.http,
        { status: STATUS.invalid(`coords ${query.coords.join(',')} are outside the range of ${query.sourcecrs}`) },
        rendering,
      );
    const place = findPlace([lon, lat]);
    const results = place ? buildResults(place, query.orders, query.targetcrs, crs) : [];
    if (results.length === 0)
      return render(
        MAPS_STATUS.noResults.http,
        { status: place ? STATUS.noAddress : STATUS.noResults, results: [] },
        rendering,
      );
    return render(MAPS_STATUS.ok.http, { status: STATUS.ok, results }, rendering);
  } catch (error) {
    return render(
      MAPS_STATUS.unknownError.http,
      { status: STATUS.unknown(`sandbox error: ${(error as Error).message}`) },
      rendering,
    );
  }
}

function render(status: number, body: Record<string, unknown>, rendering: Rendering): SandboxResponse {
  if (rendering.output === 'xml') return { status, text: toXml(body), contentType: 'application/xml;charset=utf-8' };
  if (rendering.callback !== undefined)
    return {
      status,
      text: `${rendering.callback}(${JSON.stringify(body)})`,
      contentType: 'application/javascript;charset=utf-8',
    };
  return { status, json: body };
}
