import * as z from 'zod';
import type { AnyOperation } from '../catalogue/types.js';
import { decorate } from '../catalogue/compile.js';
import { CallFailure } from '../upstream/failure.js';

/** Keys that would reach an object's prototype in a JavaScript upstream: never forwarded, at any depth. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Deeper than this, arguments are refused: no operation of the spec takes anything near it, and a deep value costs
 * stack.
 */
const MAX_ARGUMENT_DEPTH = 32;

/**
 * The arguments as the operation's schema is to see them:
 * - `null` in an optional argument means "not given" (strict function calling makes every optional field nullable,
 *   and many clients pass the `null` on), at any depth of the spec's own objects;
 * - the operation's `upperCase` arguments are upper-cased (E5's coordinate codes, which the spec writes both ways);
 * - keys that reach a prototype are dropped everywhere, so that none is forwarded upstream;
 * - nesting deeper than MAX_ARGUMENT_DEPTH is refused.
 * Copies; never changes what it was given.
 */
export function normaliseArguments(op: AnyOperation, raw: unknown): unknown {
  const clean = withoutPrototypeKeys(raw, 0);
  if (typeof clean !== 'object' || clean === null || Array.isArray(clean)) return clean;
  const args = dropNulls(op.input, clean as Record<string, unknown>);
  decorate(op).normalise(args);
  return args;
}

function withoutPrototypeKeys(value: unknown, depth: number): unknown {
  if (depth > MAX_ARGUMENT_DEPTH) {
    throw new CallFailure(
      'invalid_input',
      `invalid arguments (nothing was sent):\n- arguments: nested deeper than ${MAX_ARGUMENT_DEPTH} levels`,
    );
  }
  if (Array.isArray(value)) return value.map((item) => withoutPrototypeKeys(item, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (!PROTOTYPE_KEYS.has(key)) out[key] = withoutPrototypeKeys(child, depth + 1);
  }
  return out;
}

/** Deletes `null` where the schema would accept no value, and recurses into the spec's nested objects. */
function dropNulls(schema: z.ZodObject, args: Record<string, unknown>): Record<string, unknown> {
  const shape = schema.shape as Record<string, z.ZodType>;
  for (const [name, field] of Object.entries(shape)) {
    const value = args[name];
    if (value === null && field.safeParse(undefined).success) delete args[name];
    const inner = objectInside(field);
    if (inner && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      args[name] = dropNulls(inner, value as Record<string, unknown>);
    }
  }
  return args;
}

function objectInside(schema: z.ZodType): z.ZodObject | undefined {
  let current: unknown = schema;
  for (let i = 0; i < 4; i++) {
    if (current instanceof z.ZodObject) return current;
    if (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable) {
      current = current.unwrap();
    } else return undefined;
  }
  return undefined;
}
