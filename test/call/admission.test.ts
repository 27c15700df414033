import { describe, expect, it, vi } from 'vitest';
import { ServerStopping, CallFailure } from '../../src/upstream/failure.js';
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
    const calls = new Calls({ maxConcurrent: 2, maxQueued: 1, maxRunningPerClient: 2 });
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
    const calls = new Calls({ maxConcurrent: 1, maxQueued: 2, maxQueuedPerClient: 2 });
    const release = await calls.admit(never());
    const client = new AbortController();
    const cancelled = calls.admit(client.signal);
    const behind = calls.admit(never());
    client.abort();
    const failure = await failureOf(cancelled);
    expect(failure.code).toBe('cancelled');
    expect(failure.message).toContain('nothing was sent');
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

  it('one client may hold only its share of the running places: another starts at once beside its flood', async () => {
    const calls = new Calls({ maxConcurrent: 4, maxQueued: 16 });
    const flood = [calls.admit(never(), { client: 'a' }), calls.admit(never(), { client: 'a' })];
    const releases = await Promise.all(flood);
    let waiting = 0;
    for (let i = 0; i < 6; i++) void calls.admit(never(), { client: 'a' }).then(() => void (waiting -= 1));
    waiting = 6;
    // Two places are free, but not for a: b and c start at once.
    const b = await calls.admit(never(), { client: 'b' });
    const c = await calls.admit(never(), { client: 'c' });
    expect(calls.inFlight).toBe(10);
    await new Promise((resolve) => setImmediate(resolve));
    expect(waiting).toBe(6);
    // A place a frees goes to a's next call, within its share.
    releases[0]!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(waiting).toBe(5);
    b();
    c();
    await new Promise((resolve) => setImmediate(resolve));
    expect(waiting).toBe(5); // still two of a's running: its share
  });

  it('sessions of one client share its places: a second line of the same key waits behind the first', async () => {
    const calls = new Calls({ maxConcurrent: 2, maxQueued: 4 });
    await calls.admit(never(), { client: '203.0.113.7' });
    void calls.admit(never(), { client: '203.0.113.7' });
    void calls.admit(never(), { client: '203.0.113.7' });
    const refused = await failureOf(calls.admit(never(), { client: '203.0.113.7' }));
    expect(refused.code).toBe('busy');
    await calls.admit(never(), { client: '198.51.100.9' });
    expect(calls.inFlight).toBe(4);
  });

  it('one client may fill only its share of the queue; another still gets in line', async () => {
    const calls = new Calls({ maxConcurrent: 1, maxQueued: 4 });
    await calls.admit(never(), { client: 'a' });
    void calls.admit(never(), { client: 'a' });
    void calls.admit(never(), { client: 'a' });
    const refused = await failureOf(calls.admit(never(), { client: 'a' }));
    expect(refused.code).toBe('busy');
    expect(refused.message).toContain('2 of your calls waiting');
    expect(refused.message).toContain('SVC_MAX_QUEUED_CALLS=4');
    void calls.admit(never(), { client: 'b' });
    expect(calls.inFlight).toBe(4);
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
