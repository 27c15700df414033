import { ORDER_TYPES } from '../../catalogue/maps.js';
import { parseCrs, type CrsCode, type Point } from './crs.js';
import type { OrderType } from './results.js';

type OutputFormat = 'xml' | 'json';

/** How an answer (error or not) is rendered: what the request asked for, as far as it could be understood. */
export interface Rendering {
  output: OutputFormat;
  /** JSONP callback name; only with output json. */
  callback?: string;
}

interface GeocodeQuery {
  coords: Point;
  sourcecrs: CrsCode;
  targetcrs: CrsCode;
  orders: OrderType[];
}

export type ParsedQuery =
  { ok: true; query: GeocodeQuery; rendering: Rendering } | { ok: false; message: string; rendering: Rendering };

const DEFAULT_ORDERS: OrderType[] = ['legalcode', 'admcode'];
const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;
const CALLBACK = /^[A-Za-z_$][\w$.]{0,63}$/;

/**
 * Reads the E5 query. `request=coordsToaddr` (sample addresses carry it) and any other unknown parameter are
 * ignored. Codes are accepted in any case. `output` defaults to xml like upstream.
 */
export function parseGeocodeQuery(params: URLSearchParams): ParsedQuery {
  const outputRaw = params.get('output');
  const output = outputRaw === null || outputRaw === '' ? 'xml' : outputRaw.toLowerCase();
  const callback = params.get('callback') ?? undefined;

  // Decide the rendering first, so that errors come back in the format asked for.
  if (output !== 'xml' && output !== 'json')
    return { ok: false, message: `output must be xml or json, not '${outputRaw}'`, rendering: { output: 'json' } };
  if (callback !== undefined) {
    if (output !== 'json')
      return { ok: false, message: 'callback is only allowed when output is json', rendering: { output } };
    if (!CALLBACK.test(callback))
      return { ok: false, message: 'callback must be a JavaScript identifier', rendering: { output } };
  }
  const rendering: Rendering = callback !== undefined ? { output, callback } : { output };
  const fail = (message: string): ParsedQuery => ({ ok: false, message, rendering });

  const coordsRaw = params.get('coords');
  if (coordsRaw === null || coordsRaw.trim() === '') return fail('coords is required: <x>,<y>');
  const parts = coordsRaw.split(',').map((p) => p.trim());
  if (parts.length !== 2 || !parts.every((p) => NUMBER.test(p)))
    return fail(`coords must be <x>,<y> (two numbers), not '${coordsRaw}'`);
  const coords: Point = [Number(parts[0]), Number(parts[1])];
  if (!coords.every(Number.isFinite)) return fail('coords must be finite numbers');

  const sourcecrs = crsParam(params, 'sourcecrs');
  if (typeof sourcecrs === 'object') return fail(sourcecrs.error);
  const targetcrs = crsParam(params, 'targetcrs');
  if (typeof targetcrs === 'object') return fail(targetcrs.error);

  const ordersRaw = params.get('orders');
  let orders = DEFAULT_ORDERS;
  if (ordersRaw !== null && ordersRaw.trim() !== '') {
    orders = [];
    for (const item of ordersRaw.split(',').map((o) => o.trim().toLowerCase())) {
      if (!(ORDER_TYPES as readonly string[]).includes(item))
        return fail(`orders must be a comma list of ${ORDER_TYPES.join(', ')}; '${item}' is not one of them`);
      // Results appear in the order entered; a repeated type is answered once.
      if (!orders.includes(item as OrderType)) orders.push(item as OrderType);
    }
  }

  return { ok: true, query: { coords, sourcecrs, targetcrs, orders }, rendering };
}

function crsParam(params: URLSearchParams, name: string): CrsCode | { error: string } {
  const raw = params.get(name);
  if (raw === null || raw.trim() === '') return 'EPSG:4326';
  return parseCrs(raw) ?? { error: `${name} must be EPSG:4326, EPSG:3857 or SVC:2048, not '${raw}'` };
}
