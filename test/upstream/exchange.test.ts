/**
 * The exchange in process (upstream/index.ts): retries, Retry-After, backoff, the one deadline over all attempts
 * and cancellation, against undici's MockAgent with fake timers (no sleeps, no sockets). Which operations are sent
 * again follows their annotations: only what repeats without effect, or any request that provably never left.
 */
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCompletion } from '../../src/catalogue/textgen.js';
import { deleteService } from '../../src/catalogue/recommendation.js';
import { listTokenizerLanguages, updateSchema } from '../../src/catalogue/search.js';
import { listProducts } from '../../src/catalogue/apigateway.js';
import { migrateKey } from '../../src/catalogue/kms.js';
import { runScanner } from '../../src/catalogue/datacatalog.js';
import { updateJobExecutionOptions } from '../../src/catalogue/dataflow.js';
import type { AnyOperation } from '../../src/catalogue/types.js';
import type { ExchangeDeps } from '../../src/upstream/index.js';
import { attemptDeps, execute, type Failed } from '../helpers/attempts.js';

const ORIGIN = 'http://upstream.test';
const TOKENIZER = '/CloudSearch/real/v1/tokenizer';
const LANGUAGES = [{ language: 'thai', type: 'hanaterm', method: 'sgmt', option: '+thai' }];
const JSON_HEADERS = { 'content-type': 'application/json' };

let agent: MockAgent;
let random = 0.5;

function deps(timeoutMs = 10_000): ExchangeDeps {
  return attemptDeps({ origin: ORIGIN, dispatcher: agent, timeoutMs, random: () => random });
}

const pool = () => agent.get(ORIGIN);

/**
 * Starts a call and settles it while the fake clock runs; returns the result or the failure, and the clock time spent.
 */
async function run(
  op: AnyOperation,
  args: unknown,
  d = deps(),
  options: Parameters<typeof execute>[3] = {},
  advanceMs = 60_000,
) {
  const started = Date.now();
  const settled = execute(op, args, d, options).then(
    (value) => ({ value, failure: undefined, elapsed: Date.now() - started }),
    (failure: Failed) => ({ value: undefined, failure, elapsed: Date.now() - started }),
  );
  await vi.advanceTimersByTimeAsync(advanceMs);
  return settled;
}

/** Each request's signature timestamp, in order of arrival. */
function recordTimestamps(
  path: string,
  replies: { status: number; body: unknown; headers?: Record<string, string> }[],
) {
  const stamps: number[] = [];
  for (const reply of replies) {
    pool()
      .intercept({ path, method: 'GET' })
      .reply((opts) => {
        stamps.push(Number((opts.headers as Record<string, string>)['x-svc-apigw-timestamp']));
        return {
          statusCode: reply.status,
          data: JSON.stringify(reply.body),
          responseOptions: { headers: { ...JSON_HEADERS, ...reply.headers } },
        };
      });
  }
  return stamps;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(new Date('2026-11-23T00:00:00Z'));
  agent = new MockAgent();
  agent.disableNetConnect();
  random = 0.5;
});

afterEach(async () => {
  vi.useRealTimers();
  await agent.close();
});

describe('retries', () => {
  it('retries a read-only tool after 503 with exponential backoff, signing every attempt afresh', async () => {
    random = 0; // backoff = 200 ms x 2^(n-1) x 0.5: 100 ms, then 200 ms
    const stamps = recordTimestamps(TOKENIZER, [
      { status: 503, body: { error: { errorCode: '500', message: 'busy' } } },
      { status: 503, body: { error: { errorCode: '500', message: 'busy' } } },
      { status: 200, body: LANGUAGES },
    ]);
    const { value, failure } = await run(listTokenizerLanguages, {});
    expect(failure).toBeUndefined();
    expect(value?.answer).toEqual({ kind: 'json', value: { languages: LANGUAGES } });
    expect(value?.meta).toMatchObject({ attempts: 3, status: 200, delivery: 'yes' });
    expect([stamps[1]! - stamps[0]!, stamps[2]! - stamps[1]!]).toEqual([100, 200]);
  });

  it('waits what Retry-After asks, then tries again', async () => {
    const stamps = recordTimestamps(TOKENIZER, [
      { status: 429, body: { error: { errorCode: '420', message: 'slow down' } }, headers: { 'retry-after': '2' } },
      { status: 200, body: LANGUAGES },
    ]);
    const { value } = await run(listTokenizerLanguages, {});
    expect(value?.meta.attempts).toBe(2);
    expect(stamps[1]! - stamps[0]!).toBe(2000);
  });

  it.each([
    ['-5', [100, 200]],
    ['soon', [100, 200]],
    ['1.5', [1500, 1500]],
  ])(
    'keeps its backoff when Retry-After is not seconds nor an HTTP date, and reads a decimal as seconds (%s)',
    async (value, gaps) => {
      random = 0; // backoff = 200 ms x 2^(n-1) x 0.5: 100 ms, then 200 ms
      const busy = {
        status: 429,
        body: { error: { errorCode: '420', message: 'slow down' } },
        headers: { 'retry-after': value },
      };
      const stamps = recordTimestamps(TOKENIZER, [busy, busy, { status: 200, body: LANGUAGES }]);
      const { value: done } = await run(listTokenizerLanguages, {});
      expect(done?.meta.attempts).toBe(3);
      expect([stamps[1]! - stamps[0]!, stamps[2]! - stamps[1]!]).toEqual(gaps);
    },
  );

  it('does not wait when Retry-After ends beyond the deadline: one attempt, the 429 reported at once', async () => {
    recordTimestamps(TOKENIZER, [
      { status: 429, body: { error: { errorCode: '420', message: 'slow down' } }, headers: { 'retry-after': '30' } },
    ]);
    const { failure, elapsed } = await run(listTokenizerLanguages, {}, deps(5000));
    expect(failure?.code).toBe('upstream_error');
    expect(failure?.meta).toMatchObject({ attempts: 1, status: 429 });
    expect(elapsed).toBe(0);
  });

  it('stops after three attempts', async () => {
    recordTimestamps(
      TOKENIZER,
      Array.from({ length: 4 }, () => ({ status: 502, body: 'bad gateway' })),
    );
    const { failure } = await run(listTokenizerLanguages, {});
    expect(failure?.code).toBe('http_error');
    expect(failure?.meta?.attempts).toBe(3);
  });

  it('retries an idempotent write (E4) after a reset', async () => {
    const path = '/api/v1/jobs/job-1/executions';
    pool()
      .intercept({ path, method: 'PUT' })
      .replyWithError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    pool().intercept({ path, method: 'PUT' }).reply(200, { jobId: 'job-1' }, { headers: JSON_HEADERS });
    const { value } = await run(updateJobExecutionOptions, {
      jobId: 'job-1',
      jobCondition: { nrn: 'n', scriptPath: 's', logPath: 'l' },
    });
    expect(value?.meta.attempts).toBe(2);
  });

  it.each([
    [
      'a non-idempotent write (E8)',
      runScanner,
      { catalogId: 1, scannerId: 2 },
      'PUT',
      '/api/v1/catalogs/1/scanners/2/run-scanner',
    ],
    [
      'a completion, which costs every time (E12)',
      createCompletion,
      { text: 'hi' },
      'POST',
      '/testapp/v1/completions/LK-D2',
    ],
    ['a destructive delete (E11)', deleteService, { serviceId: 'svc-1' }, 'DELETE', '/api/v1/services/svc-1'],
  ] as const)(
    'does not send %s again after a 503 or a reset: the outcome is unknown',
    async (_, op, args, method, path) => {
      pool().intercept({ path, method }).reply(503, 'unavailable');
      const answered = await run(op, args);
      expect(answered.failure?.meta?.attempts).toBe(1);
      expect(answered.failure?.message).toMatch(/HTTP 503/);
      if (!op.annotations.readOnlyHint)
        expect(answered.failure?.message).toMatch(/outcome is unknown.*check whether it took effect/);

      pool()
        .intercept({ path, method })
        .replyWithError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
      const reset = await run(op, args);
      expect(reset.failure?.code).toBe('connection_failed');
      expect(reset.failure?.meta).toMatchObject({ attempts: 1, delivery: 'maybe' });
    },
  );

  it('sends a non-idempotent write again when the first attempt never left (connection refused), and says so when none did', async () => {
    const path = '/api/v1/catalogs/1/scanners/2/run-scanner';
    const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    pool().intercept({ path, method: 'PUT' }).replyWithError(refused());
    pool()
      .intercept({ path, method: 'PUT' })
      .reply(200, { scannerId: 2, status: 'SCANNER_STARTING' }, { headers: JSON_HEADERS });
    const { value } = await run(runScanner, { catalogId: 1, scannerId: 2 });
    expect(value?.meta).toMatchObject({ attempts: 2, delivery: 'yes' });

    for (let i = 0; i < 3; i++) pool().intercept({ path, method: 'PUT' }).replyWithError(refused());
    const { failure } = await run(runScanner, { catalogId: 1, scannerId: 2 });
    expect(failure?.meta).toMatchObject({ attempts: 3, delivery: 'no' });
    expect(failure?.message).toMatch(/connection was refused.*Nothing was sent\.$/);
  });

  it('says a write answered 2xx without the documented shape may have taken effect', async () => {
    const path = '/api/v1/catalogs/1/scanners/2/run-scanner';
    pool().intercept({ path, method: 'PUT' }).reply(201, '[1,2]', { headers: JSON_HEADERS });
    const { failure } = await run(runScanner, { catalogId: 1, scannerId: 2 });
    expect(failure?.code).toBe('unexpected_response');
    expect(failure?.message).toMatch(/accepted the request \(HTTP 201\), so it may have taken effect/);
  });
});

describe('what a failed answer says about the outcome', () => {
  const KEY = '/kms/v1/keys/k1/migrate';

  it('an empty 2xx answer to a write says what a success carries and that the request may have taken effect', async () => {
    pool().intercept({ path: '/CloudSearch/real/v1/domain/shop/schema', method: 'PUT' }).reply(200, '');
    const { failure } = await run(updateSchema, {
      name: 'shop',
      document: { primarySectionName: 'body', sections: [], indexes: [] },
    });
    expect(failure?.code).toBe('unexpected_response');
    expect(failure?.message).toBe(
      'the upstream answered HTTP 200 with an empty body; a success of E13 carries result. The upstream accepted the request (HTTP 200), so it may have taken effect: check before calling again.',
    );
  });

  it('an empty 2xx answer to a read says what a success carries, and nothing about effects', async () => {
    pool().intercept({ path: '/api/v1/products', method: 'GET' }).reply(200, '');
    const { failure } = await run(listProducts, {});
    expect(failure?.message).toBe(
      'the upstream answered HTTP 200 with an empty body; a success of E7 carries productPage',
    );
  });

  it('E15 with a documented failure code is a refusal: what the body says, and that nothing changed', async () => {
    pool()
      .intercept({ path: KEY, method: 'POST' })
      .reply(200, { code: 'FAIL', message: 'an isolation key of that name exists' }, { headers: JSON_HEADERS });
    const { failure } = await run(migrateKey, { keyTag: 'k1', targetRegion: 'JPN' });
    expect(failure?.message).toBe(
      'upstream error FAIL: an isolation key of that name exists. The request was sent and refused: nothing was changed.',
    );
  });

  it('E15 answered in a shape the spec does not give stays cautious', async () => {
    pool()
      .intercept({ path: KEY, method: 'POST' })
      .reply(200, { data: { keyTag: 'k1' } }, { headers: JSON_HEADERS });
    const { failure } = await run(migrateKey, { keyTag: 'k1', targetRegion: 'JPN' });
    expect(failure?.message).toMatch(
      /with no code; a success of E15 carries code SUCCESS and data: .*so it may have taken effect: check before calling again\.$/,
    );
  });
});

describe('notes for the client', () => {
  it('says when the upstream marks an endpoint deprecated, and before each retry what it waits for', async () => {
    const notes: string[] = [];
    pool().intercept({ path: TOKENIZER, method: 'GET' }).reply(503, 'busy');
    pool()
      .intercept({ path: TOKENIZER, method: 'GET' })
      .reply(200, LANGUAGES, {
        headers: { ...JSON_HEADERS, deprecation: '@1767225600', sunset: 'Thu, 31 Dec 2026 00:00:00 GMT' },
      });
    random = 0;
    const { value } = await run(listTokenizerLanguages, {}, deps(), {
      note: (level, message) => notes.push(`${level}: ${message}`),
    });
    expect(value?.meta.attempts).toBe(2);
    expect(notes).toEqual([
      'warning: search_list_tokenizer_languages: upstream answered HTTP 503: busy; attempt 2 of 3 in 100 ms',
      'notice: search_list_tokenizer_languages: the upstream marks /CloudSearch/real/v1/tokenizer as deprecated (deprecation: @1767225600, sunset: Thu, 31 Dec 2026 00:00:00 GMT)',
    ]);
  });
});

describe('the deadline', () => {
  it('is one deadline over all attempts: slow failures and backoff end at SVC_TIMEOUT_MS, not beyond', async () => {
    for (let i = 0; i < 3; i++) pool().intercept({ path: TOKENIZER, method: 'GET' }).reply(503, 'busy').delay(600);
    const { failure, elapsed } = await run(listTokenizerLanguages, {}, deps(1000));
    expect(failure?.code).toBe('timeout');
    expect(failure?.message).toMatch(/within 1000 ms \(SVC_TIMEOUT_MS\)/);
    expect(failure?.meta?.attempts).toBe(2);
    expect(elapsed).toBe(1000);
  });

  it('a caller can set an earlier deadline of its own (a workflow step), named in the timeout', async () => {
    pool().intercept({ path: TOKENIZER, method: 'GET' }).reply(200, LANGUAGES, { headers: JSON_HEADERS }).delay(5000);
    const deadline = { at: Date.now() + 1500, setting: 'SVC_WORKFLOW_TIMEOUT_MS' };
    const { failure, elapsed } = await run(listTokenizerLanguages, {}, deps(30_000), { deadline });
    expect(failure?.code).toBe('timeout');
    expect(failure?.message).toMatch(/within the call's deadline \(SVC_WORKFLOW_TIMEOUT_MS\)/);
    expect(elapsed).toBe(1500);
    // A later one does not extend SVC_TIMEOUT_MS.
    pool().intercept({ path: TOKENIZER, method: 'GET' }).reply(200, LANGUAGES, { headers: JSON_HEADERS }).delay(5000);
    const later = await run(listTokenizerLanguages, {}, deps(1000), {
      deadline: { at: Date.now() + 60_000, setting: 'X' },
    });
    expect(later.failure?.message).toMatch(/within 1000 ms \(SVC_TIMEOUT_MS\)/);
    expect(later.elapsed).toBe(1000);
  });
});

describe('a deadline that passes while the connection pool is made', () => {
  it('sends nothing and says the time ran out before the request could be sent', async () => {
    const stamps = recordTimestamps(TOKENIZER, [{ status: 200, body: LANGUAGES }]);
    // The first call of a process loads undici and makes the pool: here that takes longer than the whole deadline.
    const late = (d: ExchangeDeps): ExchangeDeps => ({
      ...d,
      upstream: { ...d.upstream, dispatcher: () => new Promise((resolve) => setTimeout(() => resolve(agent), 1500)) },
    });
    const { failure, elapsed } = await run(listTokenizerLanguages, {}, late(deps(1000)));
    expect(failure?.code).toBe('timeout');
    expect(failure?.message).toMatch(/time ran out \(.*SVC_TIMEOUT_MS.*\) before the request could be sent/);
    expect(failure?.message).toMatch(/Nothing was sent\.$/);
    expect(stamps).toEqual([]);
    expect(elapsed).toBe(1500);
  });
});

describe('cancellation', () => {
  it('stops waiting between attempts and sends nothing further', async () => {
    random = 1; // 300 ms of backoff
    const stamps = recordTimestamps(TOKENIZER, [
      { status: 503, body: 'busy' },
      { status: 200, body: LANGUAGES },
    ]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { failure, elapsed } = await run(listTokenizerLanguages, {}, deps(), { signal: controller.signal });
    expect(failure?.code).toBe('cancelled');
    expect(stamps).toHaveLength(1);
    expect(elapsed).toBe(100);
  });

  it('aborts the request under way', async () => {
    pool().intercept({ path: TOKENIZER, method: 'GET' }).reply(200, LANGUAGES, { headers: JSON_HEADERS }).delay(5000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 250);
    const { failure, elapsed } = await run(listTokenizerLanguages, {}, deps(), { signal: controller.signal });
    expect(failure?.code).toBe('cancelled');
    expect(failure?.meta).toMatchObject({ attempts: 1, delivery: 'maybe' });
    expect(elapsed).toBe(250);
  });

  it('sends nothing when cancelled before the call', async () => {
    const controller = new AbortController();
    controller.abort();
    const { failure } = await run(listTokenizerLanguages, {}, deps(), { signal: controller.signal });
    expect(failure?.code).toBe('cancelled');
    expect(failure?.meta).toMatchObject({ attempts: 0, delivery: 'no' });
  });
});
