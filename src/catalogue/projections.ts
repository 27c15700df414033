import { COORDINATE_SYSTEMS, type CrsCode } from './maps.js';

/**
 * SVC:2048, the national projected system ("UTM-K"), with the parameters exactly as the spec's table gives them
 * (COORDINATE_SYSTEMS): transverse Mercator, central meridian 127.5, latitude of origin 38, scale 0.9996, unit metre,
 * FALSE EASTING 2,000,000 and FALSE NORTHING 1,000,000, on GRS80 (the ellipsoid is not in the spec).
 *
 * DISCREPANCY, deliberately kept: the published UTM-K (EPSG:5179, and the UTM-K the vendor's own map libraries
 * define) has the two swapped: +x_0=1000000 +y_0=2000000. Following the spec, SVC:2048's easting is 1,000,000 m
 * larger and its northing 1,000,000 m smaller than EPSG:5179's for the same point. If the spec's table turns out to
 * be a transcription error, change x_0/y_0 here (and the definitional test values in test/sandbox/maps-crs.test.ts)
 * and nothing else.
 */
const UTM_K = COORDINATE_SYSTEMS['SVC:2048'].parameters;
export const SVC_2048_PROJ =
  `+proj=tmerc +lat_0=${UTM_K.latitudeOfOrigin} +lon_0=${UTM_K.centralMeridian} +k=${UTM_K.scaleFactor} ` +
  `+x_0=${UTM_K.falseEasting} +y_0=${UTM_K.falseNorthing} +ellps=GRS80 +units=m +no_defs`;

/**
 * proj4 definitions of the three systems: the sandbox converts with them, and the app view (which gets them in its
 * page) shows a point in WGS 84. EPSG:4326 and EPSG:3857 are proj4's built-in definitions (referenced by name, never
 * redefined); SVC:2048 is a proj string, so that proj4's global registry is never written to.
 */
export const PROJ_DEFINITIONS: Readonly<Record<CrsCode, string>> = {
  'EPSG:4326': 'EPSG:4326',
  'EPSG:3857': 'EPSG:3857',
  'SVC:2048': SVC_2048_PROJ,
};
