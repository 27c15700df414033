import proj4, { type Converter } from 'proj4';
import { CRS_CODES, type CrsCode } from '../../catalogue/maps.js';
import { PROJ_DEFINITIONS as DEFINITIONS } from '../../catalogue/projections.js';

export type { CrsCode };
export { SVC_2048_PROJ } from '../../catalogue/projections.js';

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
  const converters = new Map<CrsCode, Converter>();
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
