import * as z from 'zod';

/**
 * What an output schema asks of each node of an answer, worked out once per compiled operation (on its first answer):
 * an object's members, a list's items, or a value that its type alone decides or zod checks. The answer reader
 * (upstream/read-answer.ts) walks an answer along it without asking zod of every node.
 */
export type AnswerPlan = { optional: boolean; nullable: boolean } & (
  | { kind: 'object'; members: readonly (readonly [key: string, plan: AnswerPlan])[] }
  | { kind: 'list'; element: AnswerPlan }
  | { kind: 'value'; schema: z.ZodType; type?: string; list?: AnswerPlan }
);

/** The plan of a schema and of everything in it; a schema met twice is planned once. */
export function planAnswer(schema: z.ZodType, planned = new Map<z.ZodType, AnswerPlan>()): AnswerPlan {
  const known = planned.get(schema);
  if (known) return known;
  let optional = false;
  let nullable = false;
  let inner: z.ZodType = schema;
  for (;;) {
    if (inner instanceof z.ZodOptional) optional = true;
    else if (inner instanceof z.ZodNullable) nullable = true;
    else break;
    inner = inner.unwrap() as z.ZodType;
  }
  let plan: AnswerPlan;
  if (inner instanceof z.ZodObject) {
    const members = Object.entries(inner.shape as Record<string, z.ZodType>).map(
      ([key, member]) => [key, planAnswer(member, planned)] as const,
    );
    plan = { optional, nullable, kind: 'object', members };
  } else if (inner instanceof z.ZodArray) {
    plan = { optional, nullable, kind: 'list', element: planAnswer(inner.element as z.ZodType, planned) };
  } else {
    // A union with a list among its options (E12's probs: a number or a list of them) reads a list as that list.
    const list = inner instanceof z.ZodUnion ? inner.options.find((o) => o instanceof z.ZodArray) : undefined;
    plan = {
      optional,
      nullable,
      kind: 'value',
      schema: inner,
      type: plainType(inner),
      ...(list ? { list: planAnswer(list as z.ZodType, planned) } : {}),
    };
  }
  planned.set(schema, plan);
  return plan;
}

/** The `typeof` of every value a schema takes, when that is all it asks (z.string(), z.number(), z.boolean()). */
function plainType(schema: z.ZodType): string | undefined {
  const def = schema.def as { type: string; checks?: unknown[]; format?: string };
  if ((def.checks && def.checks.length > 0) || def.format !== undefined) return undefined; // z.int(), z.email()...
  // JSON has no NaN or Infinity, which z.number() would refuse.
  return ['string', 'number', 'boolean'].includes(def.type) ? def.type : undefined;
}
