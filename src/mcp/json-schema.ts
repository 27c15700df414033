import * as z from 'zod';
import { EXACT_BOUNDS } from '../catalogue/fields.js';

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * zod 4's own JSON Schema, trimmed of what carries no information for a model: the `$schema` tag and the
 * ±(2^53-1) bounds that z.int() adds to every integer (unless marked EXACT_BOUNDS), and `additionalProperties: {}`
 * (the default anyway).
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return trim(json) as Record<string, unknown>;
}

function trim(node: unknown, depth = 0): unknown {
  if (Array.isArray(node)) return node.map((item) => trim(item, depth + 1));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  const marker = Object.keys(EXACT_BOUNDS)[0]!;
  const exact = (node as Record<string, unknown>)[marker] === true;
  for (const [key, value] of Object.entries(node)) {
    if (key === marker) continue;
    if (!exact && ((key === 'maximum' && value === SAFE) || (key === 'minimum' && value === -SAFE))) continue;
    if (key === 'additionalProperties' && isEmptyObject(value)) continue;
    // An open object with no known members says the same without `properties: {}` (the root keeps it).
    if (key === 'properties' && isEmptyObject(value) && depth > 0) continue;
    out[key] = trim(value, depth + 1);
  }
  return out;
}

const isEmptyObject = (v: unknown) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
