import * as z from 'zod';

/**
 * Path parameters are percent-encoded when sent; `.`, `..` and empty values never reach the wire (a path parameter
 * must not reach another endpoint). The JSON Schema shows minLength 1; the dot rule is checked in code, since no
 * real id is a dot and the schema is read by the model on every turn.
 */
export const pathSegment = (description?: string) => {
  const segment = z
    .string()
    .min(1)
    .refine((value) => value !== '.' && value !== '..', 'must not be "." or ".."');
  return description ? segment.describe(description) : segment;
};

/** E1/E2: the streaming service lives in three Regions, each with its own path segment. */
export const STREAMING_REGIONS = { KR: 'v1', SGN: 'sgn-v1', JPN: 'jpn-v1' } as const;
export type StreamingRegion = keyof typeof STREAMING_REGIONS;
export const streamingRegion = () =>
  z
    .enum(Object.keys(STREAMING_REGIONS) as [StreamingRegion, ...StreamingRegion[]])
    .optional()
    .describe('Default SVC_STREAMING_REGION or KR');

/**
 * A 64-bit "Long" (E7). JSON numbers are exact only up to 2^53-1, so larger values are taken as decimal
 * strings and sent verbatim; nothing is ever rounded.
 */
export const INT64_MAX = 9223372036854775807n;
export const long = (min: 0 | 1) =>
  z.union([
    z.int({ error: (issue) => (issue.code === 'too_big' ? 'above 2^53-1: pass it as a decimal string' : undefined) }).min(min),
    z
      .string()
      .regex(min === 0 ? /^\d{1,19}$/ : /^(?!0+$)\d{1,19}$/, `must be a decimal integer string >= ${min}`)
      .refine((s) => BigInt(s) <= INT64_MAX, 'must be at most 9223372036854775807'),
  ]);
