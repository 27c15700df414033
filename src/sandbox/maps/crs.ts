import proj4 from 'proj4';
import { COORDINATE_SYSTEMS, CRS_CODES, type CrsCode } from '../../catalogue/maps.js';

export type { CrsCode };

/**
 * SVC:2048, the national projected system ("UTM-K"), with the parameters exactly as the spec's table gives them (the
 * catalogue's COORDINATE_SYSTEMS): transverse Mercator, central meridian 127.5, latitude of origin 38, scale 0.9996,
 * unit metre, FALSE EASTING 2,000,000 and FALSE NORTHING 1,000,000, on GRS80 (the ellipsoid is not in the spec).
 *
 * DISCREPANCY, deliberately kept: the published UTM-K (EPSG:5179, and the UTM-K the vendor's own map libraries
 * define) has the two swapped: +x_0=1000000 +y_0=2000000. Following the spec, the sandbox's SVC:2048 easting is
 * 1,000,000 m larger and its northing 1,000,000 m smaller than EPSG:5179's for the same point. If the spec's
 * table turns out to be a transcription error, change x_0/y_0 here (and the definitional test values in
 * test/sandbox/maps-crs.test.ts) and nothing else.
 */
const UTM_K = COORDINATE_SYSTEMS['SVC:2048'].parameters;
export const SVC_2048_PROJ =
  `+proj=tmerc +lat_0=${UTM_K.latitudeOfOrigin} +lon_0=${UTM_K.centralMeridian} +k=${UTM_K.scaleFactor} ` +
  `+x_0=${UTM_K.falseEasting} +y_0=${UTM_K.falseNorthing} +ellps=GRS80 +units=m +no_defs`;

/**
 * proj4 definitions. EPSG:4326 and EPSG:3857 are proj4's built-in definitions (referenced by name, never
 * redefined); SVC:2048 is passed as a proj string so proj4's global registry is never written to.
 */
const DEFINITIONS: Record<CrsCode, string> = {
  'EPSG:4326': 'EPSG:4326',
  'EPSG:3857': 'EPSG:3857',
  'SVC:2048': SVC_2048_PROJ,
};

/** `epsg:4326`, `svc:2048` etc.: the samples write the codes in lower case. Unknown -> undefined. */
export function parseCrs(raw: string): CrsCode | undefined {
  const upper = raw.trim().toUpperCase();
  return (CRS_CODES as readonly string[]).includes(upper) ? (upper as CrsCode) : undefined;
}

export type Point = readonly [x: number, y: number];

export interface CrsConverter {
  /** Any supported CRS -> EPSG:4326 [lon, lat]. */
  toWgs84(crs: CrsCode, point: Point): Point;
  /** EPSG:4326 [lon, lat] -> any supported CRS. */
  fromWgs84(crs: CrsCode, point: Point): Point;
}

/** Converters built per call (no module-level state); proj4 does the maths. */
export function createCrsConverter(): CrsConverter {
  const converters = new Map<CrsCode, proj4.Converter>();
  const converter = (crs: CrsCode) => {
    let c = converters.get(crs);
    if (!c) {
      c = proj4(DEFINITIONS['EPSG:4326'], DEFINITIONS[crs]);
      converters.set(crs, c);
    }
    return c;
  };
  return {
    toWgs84(crs, point) {
      if (crs === 'EPSG:4326') return point;
      const [x, y] = converter(crs).inverse([point[0], point[1]]);
      return [x, y];
    },
    fromWgs84(crs, point) {
      if (crs === 'EPSG:4326') return point;
      const [x, y] = converter(crs).forward([point[0], point[1]]);
      return [x, y];
    },
  };
}

/** Output precision: 7 decimals for degrees (about 1 cm), 2 for metres. */
export function roundFor(crs: CrsCode, value: number): number {
  const digits = crs === 'EPSG:4326' ? 7 : 2;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
