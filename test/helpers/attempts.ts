import type { Dispatcher } from 'undici';
import { argumentsStage } from '../../src/call/pipeline.js';
import { newRecord, type CallRecord } from '../../src/call/record.js';
import { itemsAResultCanShow } from '../../src/call/render.js';
import { compileOperation, type CompiledOperation } from '../../src/catalogue/compile.js';
import type { StreamingRegion } from '../../src/catalogue/fields.js';
import { SERVICES, type AnyOperation } from '../../src/catalogue/types.js';
import { CallFailure } from '../../src/failures.js';
import { upstreamOf } from '../../src/upstream/http.js';
import { SETTING_WORDS } from '../../src/config/index.js';
import { exchange, type Deadline, type ExchangeDeps, type Note } from '../../src/upstream/index.js';
import { Redactor } from '../../src/util/redact.js';

/** The exchange's dependencies for in-process tests: every service at `origin`, test credentials, a fixed request
 * id. */
export function attemptDeps(options: {
  origin: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
  random: () => number;
}): ExchangeDeps {
  return {
    settings: {
      serviceUrls: Object.fromEntries(SERVICES.map((s) => [s, options.origin])),
      credentials: {
        gateway: { accessKey: 'AK', secretKey: 'SK' },
        appKeys: {},
        studio: { apiKey: 'studio', gatewayKey: 'gw' },
      },
      timeoutMs: options.timeoutMs,
      maxResponseBytes: 1024 * 1024,
      proxy: {},
      words: SETTING_WORDS,
    },
    upstream: upstreamOf(options.dispatcher),
    now: () => Date.now(),
    requestId: () => 'req-1',
    random: options.random,
  };
}

/** The result limit of these calls: a long list is read up to what a result of this size can show. */
const RESULT_BYTES = 100_000;

/** An operation compiled as the server compiles it. */
export const compiled = <Op extends AnyOperation>(
  op: Op,
  defaultRegion: StreamingRegion = 'KR',
): CompiledOperation<Op> => compileOperation(op, { defaultRegion });

/** A failure of `execute`, with the call's record. */
export type Failed = CallFailure & { meta: CallRecord };

/**
 * The arguments and exchange stages of one call, the pipeline's own, after its admission (none here): resolves
 * with the answer and the call's record, rejects with the failure and the record.
 */
export async function execute<Op extends AnyOperation>(
  op: Op,
  args: unknown,
  deps: ExchangeDeps,
  options: { signal?: AbortSignal; note?: Note; deadline?: Deadline } = {},
) {
  const operation = compiled(op);
  const meta = newRecord(op.name, deps.now());
  try {
    const { prepared } = argumentsStage(operation, args as Record<string, unknown>, deps.settings);
    const answer = await exchange(prepared, {
      deps,
      signal: options.signal ?? new AbortController().signal,
      note: options.note ?? (() => {}),
      deadline: options.deadline ?? { at: deps.now() + deps.settings.timeoutMs, setting: deps.settings.words.timeout },
      redactor: new Redactor([]),
      record: meta,
      keepItems: itemsAResultCanShow(RESULT_BYTES),
    });
    return { answer, meta };
  } catch (error) {
    throw Object.assign(CallFailure.from(error), { meta }) as Failed;
  }
}
