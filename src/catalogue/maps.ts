import * as z from 'zod';
import { integer, maybeArray, maybeNumber, maybeObject, maybeString } from './answers.js';
import { defineOperation } from './types.js';

const centre = () => maybeObject({ crs: maybeString(), x: maybeNumber(), y: maybeNumber() });
const area = () => maybeObject({ name: maybeString(), coords: maybeObject({ center: centre() }) });
const addition = () => maybeObject({ type: maybeString(), value: maybeString() });

export const CRS_CODES = ['EPSG:4326', 'EPSG:3857', 'SVC:2048'] as const;
export type CrsCode = (typeof CRS_CODES)[number];
export const ORDER_TYPES = ['legalcode', 'admcode', 'addr', 'roadaddr'] as const;

/** The spec's coordinate-system table of E5, with UTM-K's parameters as the spec gives them. */
export const COORDINATE_SYSTEMS = {
  'EPSG:4326': {
    name: 'WGS 84 longitude and latitude',
    type: 'geographic',
    unit: 'degree',
    axes: 'x is longitude, y is latitude',
  },
  'EPSG:3857': { name: 'Web mercator', type: 'projected', datum: 'WGS 1984', unit: 'metre' },
  'SVC:2048': {
    name: 'UTM-K',
    type: 'projected',
    projection: 'Transverse Mercator',
    unit: 'metre',
    parameters: {
      centralMeridian: 127.5,
      latitudeOfOrigin: 38,
      falseEasting: 2_000_000,
      falseNorthing: 1_000_000,
      scaleFactor: 0.9996,
    },
  },
} as const satisfies Record<CrsCode, object>;

/**
 * The published UTM-K, EPSG:5179 (not in the spec): SVC:2048's projection with the false easting and northing the
 * other way round. Named so that the coordinate-systems resource can warn a user whose coordinates are in it.
 */
export const STANDARD_UTM_K = { code: 'EPSG:5179', falseEasting: 1_000_000, falseNorthing: 2_000_000 } as const;

/**
 * The spec's maps error table: `status.code` and `status.name` with the HTTP status they come with. 0 and 3 succeed.
 */
export const MAPS_STATUS = {
  ok: { code: 0, name: 'ok', http: 200 },
  noResults: { code: 3, name: 'no results', http: 200 },
  invalidRequest: { code: 100, name: 'invalid request', http: 400 },
  unknownError: { code: 900, name: 'unknown error', http: 500 },
} as const;
const ORDER = `(?:${ORDER_TYPES.join('|')})`;
/** The upstream's default orders (the spec's), and the two that resolve where no address does (rule 1). */
const DEFAULT_ORDERS = 'legalcode,admcode';
const DONG_ORDERS: readonly string[] = ['legalcode', 'admcode'];

/** The note of status 3 to a query for addresses only: the spec's rule 1 says the dong may still resolve there. */
const ADDRESS_ONLY_NO_RESULTS =
  'No address here. Near coasts and in new areas without detailed addresses, addr and roadaddr may return no ' +
  'result while legalcode and admcode still resolve (spec rule 1): ask again with orders legalcode,admcode (or ' +
  'add them to yours) for the dong. Over the sea even those return none.';

/** `land.additionN` of a roadaddr result, as the spec assigns them; the same words in the schema and the docs. */
const ADDITIONS = {
  addition0: 'roadaddr: type building, value the building name',
  addition1: 'roadaddr: type zipcode, value the postal code',
  addition2: 'roadaddr: type roadGroupCode, value the 12-digit road code',
  addition3: 'Empty type and value',
  addition4: 'Empty type and value',
} as const;

/**
 * The coordinate codes in any case (the spec's sample addresses write them in lower case), as a pattern a JSON Schema
 * can carry: portable regex dialects have no case-insensitive flag, so each letter is a class ([Ee][Pp]...), and codes
 * of one authority share it: ^([Ee][Pp][Ss][Gg]:(4326|3857)|[Ss][Vv][Cc]:2048)$. The operation upper-cases them
 * before they are sent.
 */
const CRS = (() => {
  const numbers = new Map<string, string[]>();
  for (const code of CRS_CODES) {
    const [authority, number] = code.split(':') as [string, string];
    numbers.set(authority, [...(numbers.get(authority) ?? []), number]);
  }
  const anyCase = (text: string) => text.replace(/[A-Za-z]/g, (c) => `[${c.toUpperCase()}${c.toLowerCase()}]`);
  const one = [...numbers].map(
    ([authority, list]) => `${anyCase(authority)}:${list.length > 1 ? `(${list.join('|')})` : list[0]}`,
  );
  return new RegExp(`^(${one.join('|')})$`);
})();
const crs = (description: string) =>
  z
    .string()
    .regex(CRS, `must be ${CRS_CODES.join(', ')} (any case)`)
    .optional()
    .meta({ description, default: CRS_CODES[0] });

/**
 * One number of `coords` as a person or a model may write it: a sign, digits with a point, an exponent. The grouping
 * is unambiguous, so matching is linear; the exponent has at most three digits (a coordinate is never near 1e1000).
 */
const NUMBER = String.raw`[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d{1,3})?`;
const COORDS = new RegExp(String.raw`^\s*${NUMBER}\s*,\s*${NUMBER}\s*$`);

/** A number of `coords` as a plain decimal, the form the spec's samples send: no `+`, no exponent, no bare point. */
function plainDecimal(text: string): string {
  if (/^-?\d+(\.\d+)?$/.test(text)) return text;
  const [, sign, whole = '', fraction = '', exponent = '0'] = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(
    text,
  )!;
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  const padded = point < 0 ? '0'.repeat(-point) + digits : digits.padEnd(point, '0');
  const at = Math.max(point, 0);
  const integer = padded.slice(0, at).replace(/^0+(?=\d)/, '') || '0';
  const decimals = padded.slice(at).replace(/0+$/, '');
  return `${sign === '-' ? '-' : ''}${integer}${decimals ? `.${decimals}` : ''}`;
}

export const reverseGeocode = defineOperation({
  id: 'E5',
  name: 'maps_reverse_geocode',
  title: 'Reverse geocode (Korea)',
  description:
    'Converts a coordinate in Korea to dong codes and land-lot/road addresses. Near coasts and in new areas only ' +
    'legalcode/admcode may resolve, not addr/roadaddr; status 3: none (e.g. at sea).',
  service: 'maps',
  method: 'GET',
  path: '/map-reversegeocode/v2/gc',
  auth: 'app-key-lower',
  mayAnswerText: true,
  // The spec's sample addresses write the codes in lower case (epsg:4326).
  upperCase: ['sourcecrs', 'targetcrs'],
  envelope: 'maps-status',
  input: () =>
    z
      .strictObject({
        coords: z
          .string()
          .regex(COORDS, 'must be "x,y" (e.g. 127.1054,37.3595)')
          .transform((text) =>
            text
              .split(',')
              .map((part) => plainDecimal(part.trim()))
              .join(','),
          )
          .describe('"x,y"; lon,lat for EPSG:4326; sent as plain decimals'),
        sourcecrs: crs('Input CRS, any case; UTM-K: see svc://maps/coordinate-systems'),
        targetcrs: crs('Output CRS, any case'),
        orders: z
          .string()
          .regex(new RegExp(`^${ORDER}(?:,${ORDER})*$`), `must be a comma list of ${ORDER_TYPES.join(', ')}`)
          .optional()
          .meta({
            description:
              'legalcode statutory dong, admcode administrative dong, addr/roadaddr land-lot/road address (only they ' +
              'give one); results in this order',
            default: DEFAULT_ORDERS,
          }),
        output: z.enum(['json', 'xml']).default('json').describe('xml comes back as text'),
        // The spec names no form for the callback: any name is sent, and the service decides.
        callback: z.string().optional().describe('JSONP name; json only'),
      })
      .superRefine((args, ctx) => {
        if (args.callback !== undefined && args.output !== 'json') {
          ctx.addIssue({ code: 'custom', path: ['callback'], message: 'is only allowed when output is json' });
        }
      }),
  output: () =>
    z.looseObject({
      status: z
        .looseObject({ code: integer(), name: maybeString(), message: maybeString() })
        .describe('code 0 ok; 3 no results (near coasts asking for addr/roadaddr only, or at sea)'),
      results: maybeArray(
        z.looseObject({
          name: maybeString().describe('legalcode (statutory dong), admcode (administrative dong), addr or roadaddr'),
          code: maybeObject({
            id: maybeString().describe('The statutory or administrative dong code'),
            type: maybeString().describe(
              'L statutory dong; A administrative dong; S administrative dong with the name of a statutory dong of ' +
                'another area. Inside a ri of an eup/myeon, L even in admcode results',
            ),
            mappingId: maybeString().describe(
              "ID of the service's own dong code, mapped to the statutory/administrative code in id",
            ),
          }),
          region: maybeObject({
            area0: area(),
            area1: maybeObject({
              name: maybeString(),
              alias: maybeString(),
              coords: maybeObject({ center: centre() }),
            }),
            area2: area(),
            area3: area(),
            area4: area(),
          }).describe('area0 country (kr) to area4 ri; an area with no data has an empty name'),
          land: maybeObject({
            type: maybeString(),
            name: maybeString(),
            number1: maybeString(),
            number2: maybeString(),
            coords: maybeObject({ center: centre() }),
            addition0: addition().describe(ADDITIONS.addition0),
            addition1: addition().describe(ADDITIONS.addition1),
            addition2: addition().describe(ADDITIONS.addition2),
            addition3: addition().describe(ADDITIONS.addition3),
            addition4: addition().describe(ADDITIONS.addition4),
          }).describe(
            'addr and roadaddr only. addr: type 1 land, 2 mountain; number1-number2 the lot. roadaddr: name the road, ' +
              'number1 the building number; addition0 the building name, addition1 the postal code, addition2 the ' +
              '12-digit road code. No member holds a whole address: join region area1-area4 names, land.name and number1',
          ),
        }),
      ),
    }),
  answerNote: (args, answer) => {
    if (answer.status.code !== MAPS_STATUS.noResults.code) return undefined;
    const orders = (args.orders ?? DEFAULT_ORDERS).split(',');
    return orders.some((order) => DONG_ORDERS.includes(order)) ? undefined : ADDRESS_ONLY_NO_RESULTS;
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});
