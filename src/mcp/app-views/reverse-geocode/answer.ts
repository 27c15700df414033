/**
 * What the view shows of one answer of maps_reverse_geocode: the fields of its structured result, read tolerantly (the
 * result is the service's JSON as it came: any member may be missing or null), never computed anew. Pure; no DOM.
 */

export interface Coordinates {
  crs: string;
  x: number;
  y: number;
}

interface Dong {
  /** area3 and, inside a ri, area4, as the answer names them. */
  name: string;
  code: string;
  /** L, A or S (code.type). */
  type: string;
}

export interface Address {
  /** The address in Korean, from the regions down: area1 area2 area3 area4, then road/lot. */
  korean: string;
  /** The parts the Korean is made of, for the romanised form. */
  parts: AddressParts;
  center?: Coordinates;
}

interface AddressParts {
  regions: string[];
  /** roadaddr: the road name; addr: the dong (and ri). */
  street: string;
  /** roadaddr: the building number; addr: number1-number2, with 산 for a mountain lot. */
  number: string;
  mountain?: boolean;
}

interface AreaLevel {
  level: 1 | 2 | 3 | 4;
  name: string;
  alias?: string;
  center?: Coordinates;
}

export interface AnswerView {
  /** status.code: 0 ok, 3 no results. */
  status?: { code?: number; name?: string; message?: string };
  /** How many elements `results` holds. */
  resultCount: number;
  /** area1..area4 of the first result that has them (empty names left out). */
  areas: AreaLevel[];
  legal?: Dong;
  admin?: Dong;
  road?: Address & { building?: string; zipcode?: string };
  lot?: Address;
  /** Whether the call asked for addr or roadaddr (the default orders, legalcode and admcode, do not). */
  addressesAsked: boolean;
}

export interface Asked {
  /** The point in sourcecrs; `written` as the call wrote it ("129.4, 35.0"). */
  point?: Coordinates & { written: string };
  sourcecrs: string;
  targetcrs: string;
  orders: string[];
  output: string;
  callback?: string;
}

const DEFAULT_CRS = 'EPSG:4326';
const DEFAULT_ORDERS = ['legalcode', 'admcode'];

/** The arguments of the call, with the tool's defaults where it left them out. */
export function askedOf(args: Record<string, unknown> | undefined): Asked {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const sourcecrs = (text(args?.sourcecrs) ?? DEFAULT_CRS).toUpperCase();
  const targetcrs = (text(args?.targetcrs) ?? DEFAULT_CRS).toUpperCase();
  const orders = (text(args?.orders) ?? DEFAULT_ORDERS.join(',')).split(',').map((o) => o.trim());
  const parts = (text(args?.coords) ?? '').split(',').map((n) => n.trim());
  const [x, y] = parts.map(Number);
  const point =
    parts.length === 2 && Number.isFinite(x) && Number.isFinite(y)
      ? { crs: sourcecrs, x: x!, y: y!, written: parts.join(', ') }
      : undefined;
  const callback = text(args?.callback);
  return {
    point,
    sourcecrs,
    targetcrs,
    orders,
    output: text(args?.output) ?? 'json',
    ...(callback ? { callback } : {}),
  };
}

type Json = Record<string, unknown>;
const object = (v: unknown): Json | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
const string = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** A centre, unless it is the spec's "no data" (empty crs, x = y = 0). */
function centerOf(area: Json | undefined): Coordinates | undefined {
  const c = object(object(area?.coords)?.center);
  const crs = string(c?.crs);
  if (!c || crs === '' || typeof c.x !== 'number' || typeof c.y !== 'number') return undefined;
  return { crs, x: c.x, y: c.y };
}

export function answerOf(structured: unknown, asked: Asked): AnswerView {
  const answer = object(structured);
  const status = object(answer?.status);
  const results = Array.isArray(answer?.results) ? answer.results.map(object).filter((r): r is Json => !!r) : [];
  const byName = (name: string) => results.find((r) => r.name === name);
  const regionsOf = (r: Json | undefined) => {
    const region = object(r?.region);
    return ([1, 2, 3, 4] as const).map((level) => ({ level, area: object(region?.[`area${level}`]) }));
  };
  const first = results.find((r) => object(r.region));
  const areas: AreaLevel[] = regionsOf(first)
    .filter(({ area }) => string(area?.name) !== '')
    .map(({ level, area }) => {
      const alias = string(area?.alias);
      const center = centerOf(area);
      return { level, name: string(area?.name), ...(alias ? { alias } : {}), ...(center ? { center } : {}) };
    });
  const regionNames = (r: Json | undefined) =>
    regionsOf(r)
      .map(({ area }) => string(area?.name))
      .filter((n) => n !== '');
  const dongOf = (r: Json | undefined): Dong | undefined => {
    if (!r) return undefined;
    const code = object(r.code);
    const names = regionsOf(r)
      .filter(({ level }) => level >= 3)
      .map(({ area }) => string(area?.name))
      .filter((n) => n !== '');
    return { name: names.join(' '), code: string(code?.id), type: string(code?.type) };
  };
  const road = byName('roadaddr');
  const lot = byName('addr');
  return {
    ...(status ? { status: statusOf(status) } : {}),
    resultCount: results.length,
    areas,
    legal: dongOf(byName('legalcode')),
    admin: dongOf(byName('admcode')),
    road: road && roadAddress(road, regionNames(road).slice(0, 2)),
    lot: lot && lotAddress(lot, regionNames(lot)),
    addressesAsked: asked.orders.some((o) => o === 'addr' || o === 'roadaddr'),
  };
}

function statusOf(status: Json): NonNullable<AnswerView['status']> {
  return {
    ...(typeof status.code === 'number' ? { code: status.code } : {}),
    ...(string(status.name) ? { name: string(status.name) } : {}),
    ...(string(status.message) ? { message: string(status.message) } : {}),
  };
}

/** The land's additions by their type (building, zipcode, roadGroupCode), as the answer names them. */
function additions(land: Json | undefined): Map<string, string> {
  const found = new Map<string, string>();
  for (let i = 0; i < 5; i++) {
    const a = object(land?.[`addition${i}`]);
    const type = string(a?.type);
    if (type !== '' && !found.has(type)) found.set(type, string(a?.value));
  }
  return found;
}

/** Road addresses name the si/do and si/gun/gu, then the road and the building number. */
function roadAddress(result: Json, regions: string[]): NonNullable<AnswerView['road']> {
  const land = object(result.land);
  const parts: AddressParts = { regions, street: string(land?.name), number: string(land?.number1) };
  const extra = additions(land);
  const center = centerOf(land);
  const building = extra.get('building');
  const zipcode = extra.get('zipcode');
  return {
    korean: joined([...regions, parts.street, parts.number]),
    parts,
    ...(center ? { center } : {}),
    ...(building ? { building } : {}),
    ...(zipcode ? { zipcode } : {}),
  };
}

/** Land-lot addresses name every region down to the dong or ri, then the lot (산 before a mountain lot). */
function lotAddress(result: Json, regions: string[]): Address {
  const land = object(result.land);
  const mountain = string(land?.type) === '2';
  const number1 = string(land?.number1);
  const number2 = string(land?.number2);
  const number = number2 ? `${number1}-${number2}` : number1;
  const parts: AddressParts = {
    regions: regions.slice(0, 2),
    street: joined(regions.slice(2)),
    number,
    ...(mountain ? { mountain } : {}),
  };
  const center = centerOf(land);
  return {
    korean: joined([...regions, mountain ? `산 ${number}` : number]),
    parts,
    ...(center ? { center } : {}),
  };
}

const joined = (parts: string[]) => parts.filter((p) => p !== '').join(' ');
