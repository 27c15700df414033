import * as z from 'zod';
import type { CompiledOperation } from '../catalogue/compile.js';
import type { OperationInput } from '../catalogue/types.js';
import { invalidArguments } from '../failures.js';
import { refusal } from './validation.js';

/** Keys that would reach an object's prototype in a JavaScript upstream: refused, at any depth. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The refusal of a prototype key, the transports' and this stage's alike. */
export const prototypeKeyRule = (path: string) =>
  `${path}: refused: a key that names an object's prototype is never forwarded (rename or remove it)`;

/**
 * Deeper than this, arguments are refused: no operation of the spec takes anything near it, and a deep value costs
 * stack.
 */
const MAX_ARGUMENT_DEPTH = 32;

/** The two arguments this server adds to the spec's own (they never reach the upstream). */
export interface SafetyArgs {
  dryRun: boolean;
  confirm?: string;
}

export interface ReadArguments<Op extends CompiledOperation> {
  safety: SafetyArgs;
  args: OperationInput<Op['spec']>;
}

const SAFETY = z.object({ dryRun: z.boolean().nullish(), confirm: z.string().nullish() });

/**
 * The arguments stage: the added arguments taken apart from the spec's, and the spec's checked by the operation's
 * schema (every constraint of the spec, cross-field rules included), or the refusal that names each field and rule.
 */
export function readArguments<Op extends CompiledOperation>(
  operation: Op,
  raw: Record<string, unknown> | undefined,
): ReadArguments<Op> {
  const { safety, rest } = takeSafetyArgs(operation, raw);
  // reportInput lets the error say "required" when a field is missing rather than only what was expected.
  const parsed = operation.input.safeParse(normaliseArguments(operation, rest), { reportInput: true });
  if (!parsed.success) throw refusal(parsed.error.issues);
  return { safety, args: parsed.data as OperationInput<Op['spec']> };
}

/** Separates the added arguments from the spec's; a wrong type is refused like any other bad input. */
function takeSafetyArgs(
  operation: CompiledOperation,
  raw: Record<string, unknown> | undefined,
): { safety: SafetyArgs; rest: Record<string, unknown> } {
  const rest = { ...raw };
  const taken: Record<string, unknown> = {};
  // An argument the tool does not take stays in `rest`, where the operation's schema refuses it by name.
  const { dryRun, confirm } = operation.addedArguments;
  for (const name of [...(dryRun ? ['dryRun'] : []), ...(confirm ? ['confirm'] : [])]) {
    if (name in rest) {
      taken[name] = rest[name];
      delete rest[name];
    }
  }
  // Most calls carry neither (every read-only tool): nothing to check.
  if (Object.keys(taken).length === 0) return { safety: { dryRun: false }, rest };
  const parsed = SAFETY.safeParse(taken);
  if (!parsed.success) throw refusal(parsed.error.issues);
  return { safety: { dryRun: parsed.data.dryRun === true, confirm: parsed.data.confirm ?? undefined }, rest };
}

/**
 * The arguments as the operation's schema is to see them:
 * - `null` in an optional argument means "not given" (strict function calling makes every optional field nullable,
 *   and many clients pass the `null` on), at any depth of the spec's own objects;
 * - the operation's `upperCase` arguments are upper-cased (E5's coordinate codes, which the spec writes both ways);
 * - keys that reach a prototype are refused, at any depth, so that none is forwarded upstream;
 * - nesting deeper than MAX_ARGUMENT_DEPTH is refused.
 * Copies; never changes what it was given.
 */
function normaliseArguments(operation: CompiledOperation, raw: unknown): unknown {
  const clean = withoutPrototypeKeys(raw, 0, 'arguments');
  if (typeof clean !== 'object' || clean === null || Array.isArray(clean)) return clean;
  const args = dropNulls(operation.input, clean as Record<string, unknown>);
  operation.normalise(args);
  return args;
}

function withoutPrototypeKeys(value: unknown, depth: number, path: string): unknown {
  if (depth > MAX_ARGUMENT_DEPTH)
    throw invalidArguments([`arguments: nested deeper than ${MAX_ARGUMENT_DEPTH} levels`]);
  if (Array.isArray(value)) return value.map((item, i) => withoutPrototypeKeys(item, depth + 1, `${path}.${i}`));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const at = path === 'arguments' ? key : `${path}.${key}`;
    if (PROTOTYPE_KEYS.has(key)) throw invalidArguments([prototypeKeyRule(at)]);
    out[key] = withoutPrototypeKeys(child, depth + 1, at);
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
