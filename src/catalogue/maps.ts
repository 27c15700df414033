import * as z from 'zod';
import { defineOperation } from './types.js';

const centre = () => z.looseObject({ crs: z.string().optional(), x: z.number().optional(), y: z.number().optional() });
const area = () =>
  z.looseObject({ name: z.string().optional(), coords: z.looseObject({ center: centre().optional() }).optional() });

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
        .looseObject({ code: z.number().optional(), name: z.string().optional(), message: z.string().optional() })
        .optional()
        .describe('code 0 ok, 3 no results'),
      results: z
        .array(
          z.looseObject({
            name: z.string().optional().describe('legalcode, admcode, addr or roadaddr'),
            code: z
              .looseObject({ id: z.string().optional(), type: z.string().optional(), mappingId: z.string().optional() })
              .optional()
              .describe('type L statutory dong, A administrative, S administrative with a statutory name'),
            region: z
              .looseObject({
                area0: area().optional(),
                area1: area().optional(),
                area2: area().optional(),
                area3: area().optional(),
                area4: area().optional(),
              })
              .optional()
              .describe('area0 country (kr) to area4 ri; an area with no data has an empty name'),
            land: z
              .looseObject({
                type: z.string().optional(),
                name: z.string().optional(),
                number1: z.string().optional(),
                number2: z.string().optional(),
                coords: z.looseObject({ center: centre().optional() }).optional(),
              })
              .optional()
              .describe('addr and roadaddr only; addition0 building, addition1 zipcode, addition2 roadGroupCode'),
          }),
        )
        .optional(),
    }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
});
