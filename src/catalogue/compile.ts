import { BILLED_WORK } from './billing.js';
import * as z from 'zod';
import { planAnswer, type AnswerPlan } from './answer-plan.js';
import { ENVELOPE_SUCCESS, type EnvelopeSuccess } from './envelopes.js';
import { STREAMING_REGIONS, type StreamingRegion } from './fields.js';
import type { AnyOperation, AuthScheme, HttpMethod, ServiceId } from './types.js';

/** The forms an answer is asked in: JSON, or (E5) XML or JSONP. */
export const ANSWER_FORMS = ['json', 'xml', 'jsonp'] as const;
export type AnswerForm = (typeof ANSWER_FORMS)[number];

/** What a call does to the platform: reads, changes, or destroys (the user confirms a destruction). */
type Effect = 'read' | 'write' | 'destroy';

/**
 * One catalogue entry, compiled once at server construction into all a call needs; every stage of the pipeline and
 * of the platform client receives it and none looks the operation up again (the MCP surface pairs it with the tool's
 * definition, which is MCP's and so not known here). Each named flag of the entry is turned
 * into behaviour here and nowhere else (the model is octokit's endpoint methods, built once at load).
 */
export interface CompiledOperation<Op extends AnyOperation = AnyOperation> {
  /** The entry as the catalogue writes it. */
  readonly spec: Op;
  readonly name: string;
  readonly id: string;
  readonly service: ServiceId;
  readonly method: HttpMethod;
  readonly auth: AuthScheme;
  readonly effect: Effect;
  /**
   * Whether a failed attempt that may have reached the upstream may be sent again: only what repeats without effect
   * (idempotent and not destructive). A completion (E12) costs each time; a second delete (E11) could report "not
   * found" for one that succeeded.
   */
  readonly repeatable: boolean;
  /** Work the upstream bills even when the answer is lost (billing.ts): words for that many attempts. */
  readonly billed?: (attempts: number) => string;
  /** The input schema (built on first use: building every schema is a large part of what start-up would do). */
  readonly input: Op['input'];
  readonly output: Op['output'];
  /** Arguments that fill the path template. */
  readonly pathParams: readonly string[];
  /** `upperCase`: arguments taken in any case, upper-cased before the checks (E5's coordinate codes). */
  normalise(args: Record<string, unknown>): void;
  /** `streamingRegion`: the value of a path placeholder this entry fills itself ({region}), else undefined. */
  pathValue(name: string, args: Record<string, unknown>): string | undefined;
  /** `streamingRegion`: arguments that choose the request and are not sent (E1/E2's `region`). */
  readonly notSent: ReadonlySet<string>;
  /** `mayAnswerText`: the answer may be text (E5's XML or JSONP) rather than JSON. */
  readonly answersText: boolean;
  /** `mayAnswerText`: the form the arguments ask the answer in (E5: `output: xml`, a JSONP callback), else JSON. */
  askedForm(args: Record<string, unknown>): AnswerForm;
  /** `mayAnswerText`: what the request accepts (XML and JSONP must not be refused for an Accept header). */
  readonly accept: string;
  /** `arrayResultKey`: a bare JSON array answer, as the object structured content must be. */
  asObject(parsed: unknown): unknown;
  /** `envelope`: how a 2xx answer says it failed, when it can. */
  readonly envelope?: EnvelopeSuccess & { kind: NonNullable<AnyOperation['envelope']> };
  /** `confirmation`: what the user confirms before a destructive call. */
  readonly confirmation?: {
    field: string;
    id(args: Record<string, unknown>): string;
    consequence(args: Record<string, unknown>): string;
  };
  /** `paging`: how to get the rest of a list the result had to shorten. */
  readonly paging?: (args: Record<string, unknown>, cut: { shown: number; total: number }) => string;
  /** `answerNote`: a sentence for the result beside a JSON answer that alone would mislead, else undefined. */
  note(args: Record<string, unknown>, answer: unknown): string | undefined;
  /** Arguments this server adds: `dryRun` where the call changes something, `confirm` where it destroys. */
  readonly addedArguments: { dryRun: boolean; confirm?: string };
  /** What a success carries: the required members of the output schema, down to the innermost required one. */
  successPaths(): readonly (readonly string[])[];
  /** How the answer reader walks an answer along the output schema (made on the first answer). */
  answerPlan(): AnswerPlan;
}

export interface CompileOptions {
  /** E1/E2's region when the call names none (SVC_STREAMING_REGION). */
  defaultRegion: StreamingRegion;
}

/** A parameter in a path template (`/keys/{keyTag}`): the spec's notation, read here and by the request builder. */
export const PATH_PLACEHOLDER = /\{(\w+)\}/g;

/** Compiles one catalogue entry. Pure; the schemas stay unbuilt until a call needs them. */
export function compileOperation<Op extends AnyOperation>(op: Op, options: CompileOptions): CompiledOperation<Op> {
  const upper = op.upperCase ?? [];
  const regionByArgument = op.streamingRegion === true;
  const key = op.arrayResultKey;
  const confirmation = op.confirmation;
  const { readOnlyHint, destructiveHint, idempotentHint } = op.annotations;
  let successPaths: string[][] | undefined;
  let answerPlan: AnswerPlan | undefined;
  return {
    spec: op,
    name: op.name,
    id: op.id,
    service: op.service,
    method: op.method,
    auth: op.auth,
    effect: readOnlyHint ? 'read' : destructiveHint ? 'destroy' : 'write',
    repeatable: idempotentHint && !destructiveHint,
    ...(BILLED_WORK[op.id] ? { billed: BILLED_WORK[op.id] } : {}),
    get input() {
      return op.input;
    },
    get output() {
      return op.output;
    },
    pathParams: [...op.path.matchAll(PATH_PLACEHOLDER)].map((m) => m[1]!),
    normalise(args) {
      for (const name of upper) if (typeof args[name] === 'string') args[name] = args[name].toUpperCase();
    },
    pathValue(name, args) {
      if (!regionByArgument || name !== 'region') return undefined;
      return STREAMING_REGIONS[(args.region as StreamingRegion | undefined) ?? options.defaultRegion];
    },
    notSent: new Set(regionByArgument ? ['region'] : []),
    answersText: op.mayAnswerText === true,
    askedForm: (args) =>
      op.mayAnswerText && args.output === 'xml'
        ? 'xml'
        : op.mayAnswerText && typeof args.callback === 'string'
          ? 'jsonp'
          : 'json',
    accept: op.mayAnswerText ? '*/*' : 'application/json',
    asObject: (parsed) => (key && Array.isArray(parsed) ? { [key]: parsed } : parsed),
    ...(op.envelope ? { envelope: { ...ENVELOPE_SUCCESS[op.envelope], kind: op.envelope } } : {}),
    ...(confirmation
      ? {
          confirmation: {
            field: confirmation.argument,
            id: (args) => String(args[confirmation.argument]),
            consequence: (args) => confirmation.consequence(args as never),
          },
        }
      : {}),
    ...(op.paging ? { paging: op.paging as NonNullable<CompiledOperation['paging']> } : {}),
    note: (args, answer) => op.answerNote?.(args as never, answer as never),
    addedArguments: {
      dryRun: !readOnlyHint,
      ...(confirmation ? { confirm: confirmation.argument } : {}),
    },
    successPaths: () => (successPaths ??= requiredPaths(op.output, [])),
    answerPlan: () => (answerPlan ??= planAnswer(op.output)),
  };
}

function requiredPaths(schema: z.ZodObject, prefix: readonly string[]): string[][] {
  const out: string[][] = [];
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (field.safeParse(undefined).success) continue;
    const inner = field instanceof z.ZodObject ? requiredPaths(field, [...prefix, key]) : [];
    out.push(...(inner.length > 0 ? inner : [[...prefix, key]]));
  }
  return out;
}
