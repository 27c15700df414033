import type { z } from 'zod';
import { OFF_SPEC_KEY, offSpec } from './answers.js';
import { withJit } from '../util/zod-jit.js';

/** The eleven services; each has its own origin (SVC_<SERVICE>_URL) or falls back to SVC_GATEWAY_URL. */
export const SERVICES = [
  'streaming',
  'translation',
  'dataflow',
  'maps',
  'apigateway',
  'datacatalog',
  'bigdata',
  'recommendation',
  'textgen',
  'search',
  'kms',
] as const;
export type ServiceId = (typeof SERVICES)[number];

/** Each service in words, as the server's instructions and the documentation name it. */
export const SERVICE_NAMES: Readonly<Record<ServiceId, string>> = {
  streaming: 'data streaming',
  translation: 'translation',
  dataflow: 'data flow',
  maps: 'maps',
  apigateway: 'API gateway',
  datacatalog: 'data catalog',
  bigdata: 'big-data apps',
  recommendation: 'recommendation',
  textgen: 'text generation',
  search: 'search',
  kms: 'key management',
};

/**
 * How a request is authenticated:
 * - gateway-signature: access key + HMAC-SHA256 signature v2 (E1, E2, E4, E6-E11, E13-E15)
 * - app-key-upper / app-key-lower: application key pair with upper-case (E3) or lower-case (E5) header names
 * - studio: text-generation keys (E12)
 */
export type AuthScheme = 'gateway-signature' | 'app-key-upper' | 'app-key-lower' | 'studio';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How a 2xx answer says it failed, beyond the HTTP status:
 * - code-zero: `{code: 0, message: 'SUCCESS'}` envelope (streaming)
 * - code-success: `{code: 'SUCCESS'}` (key management)
 * - maps-status: `status.code` 0 (ok) or 3 (no results); anything else is an error
 * - studio-status: `status.code` '20000' (text generation)
 * - success-flag: `success: false` with a `message` (big-data app name check)
 */
export type Envelope = 'code-zero' | 'code-success' | 'maps-status' | 'studio-status' | 'success-flag';

interface ToolAnnotationSet {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A destructive operation names the argument the user must confirm and says what will happen. */
interface Confirmation<Args> {
  /** The argument whose value the user types (or the model passes as `confirm`) to confirm, e.g. keyTag. */
  argument: keyof Args & string;
  /** What the call will do, in words a user reads before agreeing. Only what the spec says. */
  consequence(args: Args): string;
}

export interface Operation<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodObject = z.ZodObject,
  AnswersText extends boolean = boolean,
> {
  /** The spec's operation number, e.g. "E3". */
  id: string;
  /** The MCP tool name: a fixed interface (users' settings and allow lists name it; README.md lists them). */
  name: string;
  title: string;
  description: string;
  service: ServiceId;
  method: HttpMethod;
  /**
   * Path with its sample prefix; `{arg}` is filled from the argument of that name, percent-encoded.
   * `{region}` is special when `streamingRegion` is set: it becomes v1, sgn-v1 or jpn-v1.
   */
  path: string;
  auth: AuthScheme;
  /**
   * Every spec constraint lives here, cross-field rules included (superRefine).
   * Arguments not used in the path go to the query for GET/DELETE and to the JSON body otherwise.
   */
  input: Input;
  /**
   * Shape of the upstream JSON, built from ./answers.ts: its required members are what a success carries (an answer
   * without them is an error that says so); every other field may be missing or null, and unlisted fields pass
   * through. The exchange (upstream/index.ts) returns the parsed value.
   */
  output: Output;
  annotations: ToolAnnotationSet;
  envelope?: Envelope;
  /** E1/E2: `region` (KR | SGN | JPN, default from config) selects the path segment and is not sent. */
  streamingRegion?: boolean;
  /** The upstream answers a bare JSON array; structured content must be an object, so it becomes `{[key]: array}`. */
  arrayResultKey?: string;
  /**
   * The answer may be text, not JSON (E5 with output=xml or a JSONP callback): a non-JSON answer passes through as
   * text.
   */
  mayAnswerText?: AnswersText;
  /** Destructive operations (E11, E15): what the user confirms before anything is sent. */
  confirmation?: Confirmation<z.output<Input>>;
  /**
   * How to get every item a list of the result had to leave out, from the call's arguments and how many of the list's
   * items were shown: a clause after "To get the rest, ".
   */
  paging?: (args: z.output<Input>, cut: { shown: number; total: number }) => string;
  /** Arguments whose values are taken in any case: upper-cased before the checks (E5's coordinate codes). */
  upperCase?: readonly (keyof z.input<Input> & string)[];
  /**
   * A sentence the result carries beside a JSON answer that alone would mislead the next step (E5's status 3 to an
   * address-only query, E3's span tags on a direction where they are text), from the arguments as given and the
   * answer; undefined for none. Only what the spec says.
   */
  answerNote?: (args: Partial<z.input<Input>>, answer: z.output<Output>) => string | undefined;
}

export type AnyOperation = Operation<z.ZodObject, z.ZodObject, boolean>;

export type OperationInput<Op extends AnyOperation> = z.output<Op['input']>;
export type OperationOutput<Op extends AnyOperation> = z.output<Op['output']>;

/** Lists of an answer of which only the first items were kept: their keys from the root, and how many they had. */
export type CountedLists = readonly { keys: readonly string[]; total: number }[];

/**
 * What a successful call yields: the parsed JSON, or the text of a text answer (E5 only). `counted`: the lists of
 * which only the first items were kept (by their keys from the root), with the number of items they had.
 */
export type Answer<Op extends AnyOperation> =
  | { kind: 'json'; value: OperationOutput<Op>; counted?: CountedLists }
  | (Op['mayAnswerText'] extends false | undefined ? never : { kind: 'text'; value: string });

/** What a catalogue file writes: the schemas as functions, so that none is built before its first call. */
export type OperationSpec<Input extends z.ZodObject, Output extends z.ZodObject, AnswersText extends boolean> = Omit<
  Operation<Input, Output, AnswersText>,
  'input' | 'output'
> & { input: () => Input; output: () => Output };

/**
 * Declares an operation with its input and output types carried through to the call's result. A call site
 * that never sets `mayAnswerText` gets JSON answers only, by type. The zod schemas are built on first use: building
 * all of them is a large part of what start-up would otherwise do, and tools/list does not need them.
 */
export function defineOperation<
  Input extends z.ZodObject,
  Output extends z.ZodObject,
  AnswersText extends boolean = false,
>(spec: OperationSpec<Input, Output, AnswersText>): Operation<Input, Output, AnswersText> {
  const { input, output, ...rest } = spec;
  let builtInput: Input | undefined;
  let builtOutput: Output | undefined;
  return Object.defineProperties(rest, {
    input: { get: () => (builtInput ??= withJit(input)), enumerable: true },
    // Every answer may carry offSpec (./answers.ts), so every output schema says what it is.
    output: {
      get: () => (builtOutput ??= withJit(() => output().extend({ [OFF_SPEC_KEY]: offSpec() })) as unknown as Output),
      enumerable: true,
    },
  }) as Operation<Input, Output, AnswersText>;
}
