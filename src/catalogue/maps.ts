import * as z from 'zod';
import { integer, maybeArray, maybeNumber, maybeObject, maybeString } from './answers.js';
import { defineOperation } from './types.js';

const centre = () => maybeObject({ crs: maybeString(), x: maybeNumber(), y: maybeNumber() });
const area = () => maybeObject({ name: maybeString(), coords: maybeObject({ center: centre() }) });
const addition = () => maybeObject({ type: maybeString(), value: maybeString() });

export const CRS_CODES = ['EPSG:4326', 'EPSG:3857', 'SVC:2048'] as const;
export const ORDER_TYPES = ['legalcode', 'admcode', 'addr', 'roadaddr'] as const;
const ORDER = `(?:${ORDER_TYPES.join('|')})`;

export const reverseGeocode = defineOperation({
  id: 'E5',
  name: 'maps_reverse_geocode',
  title: 'Reverse geocode (Korea)',
  description: 'Converts a coordinate in Korea to dong codes and land-lot/road addresses (status 3: none, e.g. at sea).',
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
          .regex(/^-?\d+(?:\.\d+)?,-?\d+(?:\.\d+)?$/, 'must be "x,y" (e.g. 127.1054,37.3595)')
          .describe('"x,y"; lon,lat for EPSG:4326'),
        sourcecrs: z.enum(CRS_CODES).optional().meta({ description: 'Input CRS, any case', default: 'EPSG:4326' }),
        targetcrs: z.enum(CRS_CODES).optional().meta({ description: 'Output CRS, any case', default: 'EPSG:4326' }),
        orders: z
          .string()
          .regex(new RegExp(`^${ORDER}(?:,${ORDER})*$`), `must be a comma list of ${ORDER_TYPES.join(', ')}`)
          .optional()
          .meta({ description: 'Results in this order', default: 'legalcode,admcode' }),
        output: z.enum(['json', 'xml']).default('json').describe('xml comes back as text'),
        callback: z
          .string()
          .regex(/^[A-Za-z_$][\w$.]{0,63}$/, 'must be a JavaScript identifier')
          .optional()
          .describe('JSONP name; json only'),
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
        .describe('code 0 ok, 3 no results'),
      results: maybeArray(
        z.looseObject({
          name: maybeString().describe('legalcode, admcode, addr or roadaddr'),
          code: maybeObject({ id: maybeString(), type: maybeString(), mappingId: maybeString() }).describe(
            'type L statutory dong, A administrative, S administrative with a statutory name',
          ),
          region: maybeObject({
            area0: area(),
            area1: maybeObject({ name: maybeString(), alias: maybeString(), coords: maybeObject({ center: centre() }) }),
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
            addition0: addition(),
            addition1: addition(),
            addition2: addition(),
            addition3: addition(),
            addition4: addition(),
          }).describe('addr and roadaddr only; addition0 building, addition1 zipcode, addition2 roadGroupCode'),
        }),
      ),
    }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});
