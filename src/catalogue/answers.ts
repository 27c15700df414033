import * as z from 'zod';

/**
 * Building blocks of the output schemas: what the platform may answer (a tolerant reader).
 * - A required member is what a success carries: src/upstream/read-answer.ts reads the required members from the
 *   schema, and an answer without one is an error that says so. Every other field may be missing or null.
 * - Integer fields are integers; one beyond 2^53-1 (where JSON numbers stop being exact) comes as a string of its
 *   digits, exact (the answer is parsed losslessly). A Float a double does not hold (1e400, more digits than it
 *   keeps) comes as a string too, and is set aside under offSpec. A digit string the upstream sends for an Integer
 *   (the spec warns that kafkaVersionCode may come as one) becomes the integer.
 * - Objects are loose: fields the spec does not list pass through. A field whose value has another type than the
 *   spec's is not an error: src/upstream/read-answer.ts moves it to the `offSpec` of the list item that holds it, or
 *   of the answer, so that each stays where it was and a shortened list takes it along with its item.
 */

const BIG_INTEGER = z
  .string()
  .regex(/^-?\d+$/)
  .describe('An integer beyond 2^53-1, exact, as its digits');

/** A digit string becomes its integer when that is exact; beyond 2^53-1 it stays digits. */
function exactInteger(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*-?\d+\s*$/.test(value)) return value;
  const digits = value.trim();
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : digits;
}

/** An Integer of the spec that a success carries. */
export const integer = () => z.preprocess(exactInteger, z.union([z.int(), BIG_INTEGER]));

/** An Integer of the spec that may be missing or null. */
export const maybeInteger = () => z.preprocess(exactInteger, z.union([z.int(), BIG_INTEGER, z.null()])).optional();

export const maybeString = () => z.string().nullish();
/** A Float of the spec. */
export const maybeNumber = () => z.number().nullish();
export const maybeBoolean = () => z.boolean().nullish();

/** An object of the spec that may be missing or null; loose. */
export const maybeObject = <Shape extends z.ZodRawShape>(shape: Shape) => z.looseObject(shape).nullish();

/** An array of the spec that a success carries. */
export const list = <Item extends z.ZodType>(item: Item) => z.array(listItem(item));

/** An array of the spec that may be missing or null. */
export const maybeArray = <Item extends z.ZodType>(item: Item) => list(item).nullish();

/**
 * An item of a list as the answer may carry it: with an `offSpec` of its own (an object), or as `{"offSpec": {"":
 * value}}` when it is itself of another type than the spec's (a `null` among objects, a number among strings). Every
 * member of an object item is optional (a test holds the catalogue to it), so that such an item still matches.
 */
function listItem<Item extends z.ZodType>(item: Item) {
  if (item instanceof z.ZodObject) return item.extend({ [OFF_SPEC_KEY]: offSpec(ITEM_WORDS) });
  return z.union([item, z.strictObject({ [OFF_SPEC_KEY]: offSpec(ITEM_WORDS).unwrap() })]);
}

/** Where read-answer.ts puts a value whose type differs from the spec's, keyed by its path from the holder. */
export const OFF_SPEC_KEY = 'offSpec';
/** The path of a list item that is itself of another type than the spec's, in its `offSpec`. */
export const OFF_SPEC_ITEM = '';
const ANSWER_WORDS =
  "Values whose type differs from the spec's, by path, as the upstream sent them (left out of their place; a list " +
  "item's are in its own offSpec); numbers a double cannot hold (beyond 2^53, 1e400) as strings, exact; a member " +
  'the upstream itself named offSpec, under "offSpec"';
const ITEM_WORDS =
  'This item\'s values whose type differs from the spec\'s, by path within the item ("" for the item itself, then ' +
  'nothing else), as the upstream sent them; its own member named offSpec, under "offSpec"';
export const offSpec = (words = ANSWER_WORDS) => z.record(z.string(), z.unknown()).optional().describe(words);
