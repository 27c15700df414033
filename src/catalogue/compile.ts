import { ENVELOPE_SUCCESS, type EnvelopeSuccess } from './envelopes.js';
import { STREAMING_REGIONS, type StreamingRegion } from './fields.js';
import type { AnyOperation } from './types.js';

/**
 * What the named flags of one catalogue entry mean for the pipeline, each flag handled here and nowhere else (the
 * model is octokit's one `decorate()` over its endpoint table): the stages call these hooks and never read a flag.
 */
export interface Decorated {
  /** `upperCase`: arguments taken in any case, upper-cased before the checks (E5's coordinate codes). */
  normalise(args: Record<string, unknown>): void;
  /** `streamingRegion`: the value of a path placeholder this entry fills itself ({region}), else undefined. */
  pathValue(name: string, args: Record<string, unknown>, defaultRegion: StreamingRegion): string | undefined;
  /** `streamingRegion`: arguments that choose the request and are not sent (E1/E2's `region`). */
  notSent: ReadonlySet<string>;
  /** `mayAnswerText`: the answer may be text (E5's XML or JSONP) rather than JSON. */
  answersText: boolean;
  /** `mayAnswerText`: what the request accepts (XML and JSONP must not be refused for an Accept header). */
  accept: string;
  /** `arrayResultKey`: a bare JSON array answer, as the object structured content must be. */
  asObject(parsed: unknown): unknown;
  /** `envelope`: how a 2xx answer says it failed, when it can. */
  envelope?: EnvelopeSuccess & { kind: NonNullable<AnyOperation['envelope']> };
  /** `confirmation`: what the user confirms before a destructive call. */
  confirmation?: {
    field: string;
    id(args: Record<string, unknown>): string;
    consequence(args: Record<string, unknown>): string;
  };
  /** `paging`: how to get the rest of a list the result had to shorten. */
  paging?: string;
  /** Arguments this server adds: `dryRun` where the call changes something, `confirm` where it destroys. */
  addedArguments: { dryRun: boolean; confirm?: string };
}

const decorated = new WeakMap<AnyOperation, Decorated>();

/** The hooks of one operation, computed once. */
export function decorate(op: AnyOperation): Decorated {
  let found = decorated.get(op);
  if (!found) decorated.set(op, (found = build(op)));
  return found;
}

function build(op: AnyOperation): Decorated {
  const upper = op.upperCase ?? [];
  const regionByArgument = op.streamingRegion === true;
  const key = op.arrayResultKey;
  const confirmation = op.confirmation;
  return {
    normalise(args) {
      for (const name of upper) if (typeof args[name] === 'string') args[name] = args[name].toUpperCase();
    },
    pathValue(name, args, defaultRegion) {
      if (!regionByArgument || name !== 'region') return undefined;
      return STREAMING_REGIONS[(args.region as StreamingRegion | undefined) ?? defaultRegion];
    },
    notSent: new Set(regionByArgument ? ['region'] : []),
    answersText: op.mayAnswerText === true,
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
    ...(op.paging ? { paging: op.paging } : {}),
    addedArguments: {
      dryRun: !op.annotations.readOnlyHint,
      ...(confirmation ? { confirm: confirmation.argument } : {}),
    },
  };
}
