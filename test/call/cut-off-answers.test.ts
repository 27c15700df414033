/**
 * An upstream that sends its status line and headers, then resets the connection or stops sending (issue 19, item
 * 3): the request got there, so a call that changes something must say it may have taken effect, never "could not
 * reach". A real loopback server and undici's Agent: MockAgent cannot cut an answer off after its headers.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deleteService } from '../../src/catalogue/recommendation.js';
import { listTokenizerLanguages } from '../../src/catalogue/search.js';
import { runScanner } from '../../src/catalogue/datacatalog.js';
import { updateJobExecutionOptions } from '../../src/catalogue/dataflow.js';
import type { AnyOperation } from '../../src/catalogue/types.js';
import { CallFailure } from '../../src/failures.js';
import type { ExchangeDeps } from '../../src/upstream/index.js';
import { attemptDeps, execute, type Failed } from '../helpers/attempts.js';

type Behaviour = 'reset' | 'stall';
let behaviour: { status: number; then: Behaviour } = { status: 200, then: 'reset' };
let requests = 0;
let server: Server;
const sockets = new Set<Socket>();
let agent: Agent;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests += 1;
    req.resume();
    req.on('end', () => answerThenBreak(res));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

/** The status line, the headers and the start of a body that says it is longer; then a reset, or nothing more. */
function answerThenBreak(res: ServerResponse): void {
  res.writeHead(behaviour.status, { 'content-type': 'application/json', 'content-length': '1000' });
  res.write('{"partial":', () => {
    if (behaviour.then === 'reset') res.socket?.resetAndDestroy();
  });
}

afterEach(async () => {
  await agent?.destroy();
  for (const socket of sockets) socket.destroy();
  requests = 0;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function deps(timeoutMs: number): ExchangeDeps {
  agent = new Agent();
  // The shortest backoff: the retries of E4 take 100 + 200 ms.
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return attemptDeps({ origin, dispatcher: agent, timeoutMs, random: () => 0 });
}

async function failureOf(op: AnyOperation, args: unknown, timeoutMs = 5_000): Promise<Failed> {
  const outcome = await execute(op, args, deps(timeoutMs)).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(CallFailure);
  return outcome as Failed;
}

const MUTATING = [
  ['a destructive delete (E11)', deleteService, { serviceId: 'svc-1' }],
  ['a non-idempotent write (E8)', runScanner, { catalogId: 1, scannerId: 2 }],
] as const;

describe('an answer cut off after its headers', () => {
  it.each(MUTATING)(
    '%s: says the upstream answered and the change may have been made; not sent again',
    async (_, op, args) => {
      for (const status of [200, 500]) {
        behaviour = { status, then: 'reset' };
        requests = 0;
        const failure = await failureOf(op, args);
        expect(failure.code).toBe('connection_failed');
        expect(failure.message).toMatch(
          new RegExp(
            `^the upstream answered HTTP ${status} and then the connection broke before the answer was complete \\[\\w+\\]\\. The change may have been made: check before calling again\\.$`,
          ),
        );
        expect(failure.message).not.toContain('could not reach');
        expect(failure.meta).toMatchObject({ attempts: 1, delivery: 'yes', status });
        expect(requests).toBe(1);
      }
    },
  );

  it('an idempotent write (E4) is tried three times, then says the change may have been made', async () => {
    behaviour = { status: 200, then: 'reset' };
    const failure = await failureOf(updateJobExecutionOptions, {
      jobId: 'job-1',
      jobCondition: { nrn: 'n', scriptPath: 's', logPath: 'l' },
    });
    expect(failure.message).toMatch(
      /^the upstream answered HTTP 200 and then the connection broke before the answer was complete \[\w+\] \(after 3 attempts\)\. The change may have been made: check before calling again\.$/,
    );
    expect(failure.meta).toMatchObject({ attempts: 3, delivery: 'yes', status: 200 });
    expect(requests).toBe(3);
  });

  it('a read-only call says what happened, with nothing about a change', async () => {
    behaviour = { status: 200, then: 'reset' };
    const failure = await failureOf(listTokenizerLanguages, {});
    expect(failure.message).toMatch(
      /^the upstream answered HTTP 200 and then the connection broke before the answer was complete \[\w+\] \(after 3 attempts\)\.$/,
    );
    expect(failure.meta).toMatchObject({ attempts: 3, delivery: 'yes', status: 200 });
  });
});

describe('an answer that stalls after its headers', () => {
  it.each(MUTATING)(
    '%s: the timeout says the upstream answered and the change may have been made',
    async (_, op, args) => {
      behaviour = { status: 200, then: 'stall' };
      const failure = await failureOf(op, args, 300);
      expect(failure.code).toBe('timeout');
      expect(failure.message).toBe(
        'the upstream answered HTTP 200 and then stalled: no complete answer from upstream within 300 ms (SVC_TIMEOUT_MS). ' +
          'The change may have been made: check before calling again.',
      );
      expect(failure.meta).toMatchObject({ attempts: 1, delivery: 'yes', status: 200 });
    },
  );

  it('a read-only call: the timeout says the upstream answered and then stalled', async () => {
    behaviour = { status: 500, then: 'stall' };
    const failure = await failureOf(listTokenizerLanguages, {}, 300);
    expect(failure.message).toBe(
      'the upstream answered HTTP 500 and then stalled: no complete answer from upstream within 300 ms (SVC_TIMEOUT_MS)',
    );
  });
});
