import { badRequest, fail } from './errors.js';

/**
 * What the sandbox takes from the catalogue, and what it does not (the one place that says so):
 * - Taken from src/catalogue, the one home of the spec's facts: each operation's method, path and auth scheme
 *   (route-of.ts), and the spec's tables: Region segments, method names, job states, coordinate systems and UTM-K's
 *   parameters, maps status codes, AI-filter scores, the model, dataset types and field types, KMS Regions, gateway
 *   error codes, tokenizer languages, translation directions.
 * - Not taken, deliberately: request validation. The checks here and in the services are written by hand, not with
 *   the catalogue's zod schemas, so that the sandbox judges requests independently of the server it is testing: a
 *   constraint the server forgets shows up as a 400 here instead of passing silently. (A check may compare with a
 *   table above, e.g. KMS Regions; the rules themselves, which fields, types and ranges, are the sandbox's own.)
 * Each check throws an HttpProblem carrying a gateway 400 (errorCode 100).
 */

export type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireObject(value: unknown, what: string): JsonObject {
  if (!isObject(value)) fail(badRequest(`${what} must be a JSON object`));
  return value;
}

interface IntRule {
  min?: number;
  max?: number;
  /** Name used in messages when it differs from the key (e.g. a path inside a nested object). */
  label?: string;
}

function checkInt(value: unknown, field: string, rule: IntRule): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) fail(badRequest(`${field} must be an integer`));
  const n = value;
  if (rule.min !== undefined && n < rule.min) fail(badRequest(`${field} must be >= ${rule.min}`));
  if (rule.max !== undefined && n > rule.max) fail(badRequest(`${field} must be <= ${rule.max}`));
  return n;
}

export function requireInt(obj: JsonObject, field: string, rule: IntRule = {}): number {
  const label = rule.label ?? field;
  if (obj[field] === undefined || obj[field] === null) fail(badRequest(`${label} is required`));
  return checkInt(obj[field], label, rule);
}

export function optionalInt(obj: JsonObject, field: string, rule: IntRule = {}): number | undefined {
  if (obj[field] === undefined || obj[field] === null) return undefined;
  return checkInt(obj[field], rule.label ?? field, rule);
}

interface StringRule {
  minLength?: number;
  maxLength?: number;
  /** Name used in messages when it differs from the key (e.g. a path inside a nested object). */
  label?: string;
}

function checkString(value: unknown, field: string, rule: StringRule): string {
  if (typeof value !== 'string') fail(badRequest(`${field} must be a string`));
  const s = value;
  // Lengths count characters (code points), as the spec's "characters" means, not UTF-16 units.
  const length = [...s].length;
  if (rule.minLength !== undefined && length < rule.minLength)
    fail(badRequest(`${field} must be at least ${rule.minLength} characters`));
  if (rule.maxLength !== undefined && length > rule.maxLength)
    fail(badRequest(`${field} must be at most ${rule.maxLength} characters`));
  return s;
}

export function requireString(obj: JsonObject, field: string, rule: StringRule = {}): string {
  const label = rule.label ?? field;
  if (obj[field] === undefined || obj[field] === null) fail(badRequest(`${label} is required`));
  return checkString(obj[field], label, rule);
}

export function optionalString(obj: JsonObject, field: string, rule: StringRule = {}): string | undefined {
  if (obj[field] === undefined || obj[field] === null) return undefined;
  return checkString(obj[field], rule.label ?? field, rule);
}

export function requireArray(obj: JsonObject, field: string, label = field): unknown[] {
  const value = obj[field];
  if (!Array.isArray(value)) fail(badRequest(`${label} must be an array`));
  return value;
}

/**
 * A path parameter the spec declares Integer (no range given): decimal digits, a sign allowed, within the safe range.
 */
export function pathInt(params: Record<string, string>, name: string): number {
  const raw = params[name] ?? '';
  if (!/^-?\d{1,15}$/.test(raw)) fail(badRequest(`${name} must be an integer`));
  return Number(raw);
}

/** A Boolean query parameter: exactly `true` or `false`. */
export function queryBoolean(query: URLSearchParams, name: string): boolean | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  fail(badRequest(`${name} must be true or false`));
}

/** One of a fixed set of values. */
export function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  fail(badRequest(`${field} must be one of ${allowed.join(', ')}`));
}
