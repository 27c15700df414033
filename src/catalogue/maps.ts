import { z } from 'zod';
import type { Operation } from './types.js';

export const CRS_CODES = ['EPSG:4326', 'EPSG:3857', 'SVC:2048'] as const;
export const ORDER_TYPES = ['legalcode', 'admcode', 'addr', 'roadaddr'] as const;
const ORDER = `(?:${ORDER_TYPES.join('|')})`;

export const reverseGeocode: Operation = {
  id: 'E5',
  name: 'maps_reverse_geocode',
  title: 'Reverse geocode coordinates (Korea)',
  description:
    'Converts a coordinate in Korea to dong codes and land-lot/road addresses (status 3: none, e.g. at sea).',
  service: 'maps',
  method: 'GET',
  path: '/map-reversegeocode/v2/gc',
  auth: 'app-key-lower',
  mayAnswerText: true,
  envelope: 'maps-status',
  input: z
    .strictObject({
      coords: z
        .string()
        .regex(/^-?\d+(?:\.\d+)?,-?\d+(?:\.\d+)?$/, 'must be "x,y" (e.g. 127.1054,37.3595)')
        .describe('"x,y"; lon,lat for EPSG:4326'),
      sourcecrs: z.enum(CRS_CODES).optional().meta({ description: 'Input CRS', default: 'EPSG:4326' }),
      targetcrs: z.enum(CRS_CODES).optional().meta({ description: 'Output CRS', default: 'EPSG:4326' }),
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
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
};
