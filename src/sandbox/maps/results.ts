import type { ORDER_TYPES } from '../../catalogue/maps.js';
import { roundFor, type CrsCode, type CrsConverter } from './crs.js';
import type { Area, DongCode, LonLat, Place } from './gazetteer.js';

export type OrderType = (typeof ORDER_TYPES)[number];

interface Center {
  crs: string;
  x: number;
  y: number;
}

/** One element of `results`, shaped as the spec's result table. */
export interface GeocodeResult {
  name: OrderType;
  code: { id: string; type: string; mappingId: string };
  region: Record<`area${0 | 1 | 2 | 3 | 4}`, { name: string; coords: { center: Center }; alias?: string }>;
  land?: Record<string, unknown>;
}

/** The spec's "area with no data": empty name, empty crs, x 0.0, y 0.0. */
const EMPTY_CENTER: Center = { crs: '', x: 0, y: 0 };
const EMPTY_ADDITION = { type: '', value: '' };

/** Builds results for one place, every center converted from EPSG:4326 to `targetcrs`. */
export function buildResults(
  place: Place,
  orders: readonly OrderType[],
  targetcrs: CrsCode,
  crs: CrsConverter,
): GeocodeResult[] {
  const center = (point: LonLat): Center => {
    const [x, y] = crs.fromWgs84(targetcrs, point);
    return { crs: targetcrs, x: roundFor(targetcrs, x), y: roundFor(targetcrs, y) };
  };
  const area = (a: Area | undefined) => (a ? { name: a.name, coords: { center: center(a.center) } } : emptyArea());
  const region = (dong: DongCode): GeocodeResult['region'] => ({
    // area0 is the country: its name only, no coordinates.
    area0: { name: 'kr', coords: { center: { ...EMPTY_CENTER } } },
    area1: { ...area(place.area1), alias: place.area1.alias },
    area2: area(place.area2),
    area3: area(dong.area3),
    area4: area(dong.area4),
  });
  const code = (dong: DongCode) => ({ id: dong.id, type: dong.type, mappingId: dong.mappingId });

  const results: GeocodeResult[] = [];
  for (const order of orders) {
    switch (order) {
      case 'legalcode':
        results.push({ name: order, code: code(place.legal), region: region(place.legal) });
        break;
      case 'admcode':
        results.push({ name: order, code: code(place.admin), region: region(place.admin) });
        break;
      case 'addr':
        if (!place.addr) break; // rule 1
        results.push({
          name: order,
          code: code(place.legal),
          region: region(place.legal),
          land: {
            type: place.addr.type,
            number1: place.addr.number1,
            number2: place.addr.number2,
            ...additions([]),
            name: '',
            coords: { center: center(place.addr.center) },
          },
        });
        break;
      case 'roadaddr': {
        const road = place.roadaddr;
        if (!road) break; // rule 1
        results.push({
          name: order,
          code: code(place.legal),
          region: region(place.legal),
          land: {
            type: '',
            number1: road.number1,
            number2: '',
            ...additions([
              { type: 'building', value: road.building },
              { type: 'zipcode', value: road.zipcode },
              { type: 'roadGroupCode', value: road.roadGroupCode },
            ]),
            name: road.road,
            coords: { center: center(road.center) },
          },
        });
        break;
      }
    }
  }
  return results;
}

function emptyArea() {
  return { name: '', coords: { center: { ...EMPTY_CENTER } } };
}

/** addition0..addition4; entries beyond the given ones have empty type and value. */
function additions(filled: { type: string; value: string }[]): Record<string, { type: string; value: string }> {
  const out: Record<string, { type: string; value: string }> = {};
  for (let i = 0; i < 5; i++) out[`addition${i}`] = { ...(filled[i] ?? EMPTY_ADDITION) };
  return out;
}
