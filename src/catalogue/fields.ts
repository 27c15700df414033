import * as z from 'zod';

/**
 * Bounds of this server's own where the spec sets none, so that no argument can be of any size: generous for any
 * real use, and stated in docs/tools.md ("Server limits where the spec sets none") as the server's, not the platform's.
 */
export const SERVER_LIMITS = {
  /** E12 `text`. */
  promptChars: 100_000,
  /** E12 `stopBefore`. */
  stopSequences: 100,
  stopSequenceChars: 1000,
  /** E13 `document`, as JSON. */
  documentBytes: 1024 * 1024,
} as const;

/** Marks an integer whose 2^53-1 bound is the rule itself (E7), not zod's implicit one: its JSON Schema keeps it. */
export const EXACT_BOUNDS = { exactBounds: true } as const;

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
/** The Region of a call that names none, unless SVC_STREAMING_REGION says otherwise. */
export const DEFAULT_STREAMING_REGION = 'KR' satisfies StreamingRegion;

/**
 * The description of `region`: the default the running server applies, since the agent cannot see its environment.
 * The catalogue says the built-in default; the server puts its configured one in its tool list (catalogue-tools.ts).
 */
export const regionDescription = (region: StreamingRegion) => `Default: ${region}`;

export const streamingRegion = () =>
  z
    .enum(Object.keys(STREAMING_REGIONS) as [StreamingRegion, ...StreamingRegion[]])
    .optional()
    .describe(regionDescription(DEFAULT_STREAMING_REGION));

/**
 * A 64-bit "Long" (E7): an integer up to 2^53-1 (where JSON numbers stop being exact, so the schema says so with
 * `maximum`), or a decimal string up to 2^63-1, sent verbatim; nothing is ever rounded. The range of the string is
 * checked only once its pattern holds, so no input reaches BigInt that it cannot read. A refusal is one line that says
 * both forms: z.int() alone would report a number beyond 2^53-1 twice (its own safe range and the bound), and a value
 * of neither form as a bare "Invalid input".
 */
const INT64_MAX = 9223372036854775807n;
const BOTH_FORMS = `a decimal string is accepted up to ${INT64_MAX}; as a JSON number, only up to 2^53-1, where numbers stop being exact`;
export const long = (min: 0 | 1) =>
  z.union(
    [
      z
        .int({ error: (issue) => (issue.code === 'too_big' ? BOTH_FORMS : undefined) })
        .min(min)
        .meta(EXACT_BOUNDS),
      z
        .string()
        .regex(min === 0 ? /^\d{1,19}$/ : /^(?!0+$)\d{1,19}$/, `must be a decimal integer string >= ${min}`)
        .refine((s) => !/^\d{1,19}$/.test(s) || BigInt(s) <= INT64_MAX, `must be at most ${INT64_MAX}`),
    ],
    {
      error: (issue) =>
        issue.code === 'invalid_union'
          ? `must be an integer >= ${min}, or a decimal string of one up to ${INT64_MAX}`
          : undefined,
    },
  );
