import { describe, expect, it, vi } from 'vitest';
import { ServerStopping, CallFailure } from '../../src/failures.js';
import { Calls } from '../../src/call/admission.js';

const never = () => new AbortController().signal;

async function failureOf(promise: Promise<unknown>): Promise<CallFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CallFailure);
  return error as CallFailure;
}

describe('Calls: admission', () => {
  it('runs up to maxConcurrent at once, queues up to maxQueued, refuses the next with busy', async () => {
    // One client (stdio's): it may hold every place.
    const calls = new Calls({ maxConcurrent: 2, maxQueued: 1 });
    const first = await calls.admit(never());
    await calls.admit(never());
    let thirdIn = false;
    const third = calls.admit(never()).then((release) => {
      thirdIn = true;
      return release;
    });
    expect(calls.inFlight).toBe(3);
    const busy = await failureOf(calls.admit(never()));
    expect(busy.code).toBe('busy');
    expect(busy.message).toContain('SVC_MAX_CONCURRENT_CALLS=2');
    expect(busy.message).toContain('Nothing was sent');
    await Promise.resolve();
    expect(thirdIn).toBe(false);
    first();
    (await third)();
    expect(thirdIn).toBe(true);
    expect(calls.inFlight).toBe(1);
  });

  it('a release given twice frees one place only', async () => {
    const calls = new Calls({ maxConcurrent: 1, maxQueued: 4 });
    const release = await calls.admit(never());
    release();
    release();
    expect(calls.inFlight).toBe(0);
    await calls.admit(never());
    const waiting = calls.admit(never());
    expect(calls.inFlight).toBe(2);
    release(); // the stale release must not let the waiting call in
    await Promise.resolve();
    expect(calls.inFlight).toBe(2);
    void waiting;
  });

  it('a call cancelled while it waits leaves the queue with cancelled, and nothing else moves', async () => {
    const calls = new Calls({ maxConcurrent: 1, maxQueued: 2 });
    const release = await calls.admit(never());
    const client = new AbortController();
    const cancelled = calls.admit(client.signal);
    const behind = calls.admit(never());
    client.abort();
    const failure = await failureOf(cancelled);
    expect(failure.code).toBe('cancelled');
    expect(failure.message).toBe('the call was cancelled while it waited for a place. Nothing was sent.');
    expect(calls.inFlight).toBe(2);
    release();
    (await behind)();
    expect(calls.inFlight).toBe(0);
  });

  it('a call whose signal is already aborted does not wait for a place', async () => {
    const calls = new Calls({ maxConcurrent: 1, maxQueued: 2 });
    await calls.admit(never());
    const client = new AbortController();
    client.abort();
    expect((await failureOf(calls.admit(client.signal))).code).toBe('cancelled');
    expect(calls.inFlight).toBe(1);
  });

  it('idle() settles when the last call running or waiting is gone', async () => {
    const calls = new Calls({ maxConcurrent: 1, maxQueued: 1 });
    await expect(calls.idle()).resolves.toBeUndefined();
    const release = await calls.admit(never());
    const waiting = calls.admit(never());
    let idle = false;
    void calls.idle().then(() => (idle = true));
    release();
    const second = await waiting;
    await Promise.resolve();
    expect(idle).toBe(false);
    second();
    await Promise.resolve();
    expect(idle).toBe(true);
  });
});

describe('Calls: fairness', () => {
  it("free places go to the waiting clients in turn: one client's burst does not hold up another's call", async () => {
    const calls = new Calls({ maxConcurrent: 1, maxQueued: 100 });
    const order: string[] = [];
    const releases: (() => void)[] = [await calls.admit(never(), { client: 'a' })];
    const wait = (client: string, name: string) =>
      void calls.admit(never(), { client }).then((release) => {
        order.push(name);
        releases.push(release);
      });
    for (const i of [1, 2, 3, 4, 5]) wait('a', `a${i}`);
    wait('b', 'b');
    for (let i = 0; i < 6; i++) {
      releases[i]!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    // a1 was first in line; then b, whose turn comes before a's second call; then the rest of a's burst.
    expect(order).toEqual(['a1', 'b', 'a2', 'a3', 'a4', 'a5']);
    releases[6]!();
    expect(calls.inFlight).toBe(0);
  });

  it('a lone client may use every running and every waiting place', async () => {
    const calls = new Calls({ maxConcurrent: 4, maxQueued: 4 });
    for (let i = 0; i < 4; i++) await calls.admit(never(), { client: 'a' });
    for (let i = 0; i < 4; i++) void calls.admit(never(), { client: 'a' }).catch(() => {});
    expect(calls.running).toBe(4);
    expect(calls.waiting).toBe(4);
    const refused = await failureOf(calls.admit(never(), { client: 'a' }));
    expect(refused.code).toBe('busy');
    expect(refused.message).toContain('4 calls are running and 4 waiting, 8 of them yours');
    expect(refused.message).toContain('SVC_MAX_QUEUED_CALLS=4');
  });

  it('a free place goes to the waiting client with the fewest calls running, before the next of a flood', async () => {
    const calls = new Calls({ maxConcurrent: 4, maxQueued: 16 });
    const floods = await Promise.all([1, 2, 3, 4].map(() => calls.admit(never(), { client: 'a' })));
    const order: string[] = [];
    const wait = (client: string) => void calls.admit(never(), { client }).then(() => order.push(client));
    for (let i = 0; i < 6; i++) wait('a');
    wait('b');
    wait('c');
    floods[0]!();
    floods[1]!();
    floods[2]!();
    await new Promise((resolve) => setImmediate(resolve));
    // a runs 3, then 2, then 1: b and c (none running) come first, then a, whose one call left runs beside them.
    expect(order).toEqual(['b', 'c', 'a']);
  });

  it('with the queue full, the client holding the most gives way: its newest waiting call is refused, not the newcomer', async () => {
    const calls = new Calls({ maxConcurrent: 2, maxQueued: 4 });
    await calls.admit(never(), { client: 'a' });
    await calls.admit(never(), { client: 'a' });
    const outcomes: string[] = [];
    const ask = (client: string, name: string) =>
      void calls.admit(never(), { client }).then(
        () => outcomes.push(`${name} runs`),
        (e: CallFailure) => outcomes.push(`${name} ${e.code}`),
      );
    for (const name of ['a1', 'a2', 'a3', 'a4']) ask('a', name);
    ask('b', 'b1');
    await new Promise((resolve) => setImmediate(resolve));
    // a held all six places; b takes the place of a's newest waiting call.
    expect(outcomes).toEqual(['a4 busy']);
    ask('b', 'b2');
    ask('b', 'b3');
    ask('b', 'b4');
    ask('c', 'c1');
    ask('c', 'c2');
    ask('c', 'c3');
    await new Promise((resolve) => setImmediate(resolve));
    // Three clients, six places: each ends with two (a's two running; b's and c's waiting).
    expect(outcomes.sort()).toEqual(['a1 busy', 'a2 busy', 'a3 busy', 'a4 busy', 'b3 busy', 'b4 busy', 'c3 busy']);
    expect([calls.running, calls.waiting]).toEqual([2, 4]);
  });

  it("the refusal of a call that gave way says why, and the newcomer's call runs when a place frees", async () => {
    const calls = new Calls({ maxConcurrent: 1, maxQueued: 1 });
    const release = await calls.admit(never(), { client: 'a' });
    const gaveWay = calls.admit(never(), { client: 'a' });
    const newcomer = calls.admit(never(), { client: 'b' });
    const failure = await failureOf(gaveWay);
    expect(failure.code).toBe('busy');
    expect(failure.message).toContain('another client needed a place and yours held the most (2 of 2)');
    expect(failure.message).toContain('Nothing was sent');
    release();
    (await newcomer)();
    expect(calls.inFlight).toBe(0);
  });

  it('sessions of one client are one client: a second line of the same key does not take a share of its own', async () => {
    const calls = new Calls({ maxConcurrent: 1, maxQueued: 2 });
    await calls.admit(never(), { client: '203.0.113.7' });
    void calls.admit(never(), { client: '203.0.113.7' }).catch(() => {});
    void calls.admit(never(), { client: '203.0.113.7' }).catch(() => {});
    const refused = await failureOf(calls.admit(never(), { client: '203.0.113.7' }));
    expect(refused.code).toBe('busy');
    void calls.admit(never(), { client: '198.51.100.9' });
    expect(calls.inFlight).toBe(3);
  });

  it('a call still waiting at its deadline gives up, saying nothing was sent, and leaves its place in line', async () => {
    vi.useFakeTimers();
    try {
      const calls = new Calls({ maxConcurrent: 1, maxQueued: 4 });
      const release = await calls.admit(never());
      const now = () => Date.now();
      const late = calls.admit(never(), { deadline: { at: Date.now() + 1000, setting: 'SVC_TIMEOUT_MS' }, now });
      const failure = failureOf(late);
      await vi.advanceTimersByTimeAsync(1000);
      const timedOut = await failure;
      expect(timedOut.code).toBe('timeout');
      expect(timedOut.message).toMatch(
        /no place to run within the call's deadline \(SVC_TIMEOUT_MS\): it waited 1000 ms.*Nothing was sent/,
      );
      expect(calls.inFlight).toBe(1);
      release();
      expect(calls.inFlight).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Calls: the signal of a call', () => {
  it('carries the client abort and its reason', () => {
    const calls = new Calls({ maxConcurrent: 1, maxQueued: 0 });
    const client = new AbortController();
    const { signal } = calls.open(client.signal);
    expect(signal.aborted).toBe(false);
    const reason = new Error('client gave up');
    client.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
  });

  it('is already aborted when the client signal was', () => {
    const calls = new Calls({ maxConcurrent: 1, maxQueued: 0 });
    const client = new AbortController();
    client.abort('early');
    const { signal } = calls.open(client.signal);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('early');
  });

  it('stop() aborts every open call with one ServerStopping, and refuses new admissions', async () => {
    const calls = new Calls({ maxConcurrent: 4, maxQueued: 0 });
    const a = calls.open(never());
    const b = calls.open(never());
    calls.stop();
    expect(a.signal.reason).toBeInstanceOf(ServerStopping);
    expect(b.signal.reason).toBe(a.signal.reason);
    expect((await failureOf(calls.admit(never()))).code).toBe('shutting_down');
    const late = calls.open(never());
    expect(late.signal.reason).toBeInstanceOf(ServerStopping);
  });

  it('a call that is done is no longer stopped, and no longer follows its client', () => {
    const calls = new Calls({ maxConcurrent: 1, maxQueued: 0 });
    const client = new AbortController();
    const call = calls.open(client.signal);
    call.done();
    calls.stop();
    client.abort();
    expect(call.signal.aborted).toBe(false);
  });

  it('a client abort after stop() does not replace the ServerStopping reason', () => {
    const calls = new Calls({ maxConcurrent: 1, maxQueued: 0 });
    const client = new AbortController();
    const { signal } = calls.open(client.signal);
    calls.stop();
    client.abort('late');
    expect(signal.reason).toBeInstanceOf(ServerStopping);
  });
});
