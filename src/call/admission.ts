import { ServerStopping, CallFailure } from '../upstream/failure.js';

export interface CallLimits {
  /** Tool calls running at once, over every client of the process: each may hold an upstream answer in memory. */
  maxConcurrent: number;
  /** Calls waiting for a place, over every client; one more is refused at once. Waiting costs little memory. */
  maxQueued: number;
  /** Calls one client may have waiting at once (default half of maxQueued): no client can fill the queue alone. */
  maxQueuedPerClient?: number;
  /**
   * Calls one client may have running at once (default half of maxConcurrent): a flood from one client leaves places
   * for the others to start at once. Over stdio, which has one client, both shares are the whole.
   */
  maxRunningPerClient?: number;
}

/** How one call asks for a place. */
export interface Admission {
  /** Who asks (a session, a client address, stdio's one client): clients take turns for free places. */
  client?: string;
  /** When the call must end (epoch ms): the wait counts toward it, and a call still waiting then gives up. */
  deadline?: { at: number; setting: string };
  now?: () => number;
}

interface Waiter {
  go(): void;
}

/**
 * Every tool call of the process passes here: at most `maxConcurrent` run at once (each may hold an upstream answer
 * in memory); the others wait, cheaply, for a place, each client in its own line, and free places go to the clients
 * in turn, so that a burst from one client does not hold up another's call. A client may have at most its share of
 * the waiting places; past that, or with the whole queue full, a call is refused with [busy]. At shutdown the calls
 * still running can be told to stop, so that each ends with an answer instead of being dropped.
 */
export class Calls {
  readonly #limits: Required<CallLimits>;
  /** Set once the server stops the calls in flight. */
  #stopped: ServerStopping | undefined;
  /** The signals of the calls in flight, aborted by stop(). */
  readonly #open = new Set<AbortController>();
  /** Each client's line, in the order the clients are served (a Map keeps insertion order: the turn). */
  readonly #lines = new Map<string, Waiter[]>();
  #waiting = 0;
  #running = 0;
  /** Running calls per client (only clients with some). */
  readonly #runningBy = new Map<string, number>();
  #idle: (() => void)[] = [];

  constructor(limits: CallLimits) {
    this.#limits = {
      maxQueuedPerClient: Math.max(1, Math.ceil(limits.maxQueued / 2)),
      maxRunningPerClient: Math.max(1, Math.ceil(limits.maxConcurrent / 2)),
      ...limits,
    };
  }

  /**
   * The signal of one call: aborted when its client cancels it (with the client's reason) or when the server stops
   * the calls in flight (a ServerStopping). `done` forgets it. (AbortSignal.any would do, at tens of microseconds a
   * call on Node 20.)
   */
  open(clientSignal: AbortSignal): { signal: AbortSignal; done(): void } {
    const controller = new AbortController();
    const cancel = () => controller.abort(clientSignal.reason);
    if (this.#stopped) controller.abort(this.#stopped);
    else if (clientSignal.aborted) cancel();
    else {
      clientSignal.addEventListener('abort', cancel, { once: true });
      this.#open.add(controller);
    }
    return {
      signal: controller.signal,
      done: () => {
        clientSignal.removeEventListener('abort', cancel);
        this.#open.delete(controller);
      },
    };
  }

  /** Calls holding a place (the telemetry's gauge). */
  get running(): number {
    return this.#running;
  }

  /** Calls waiting for a place (the telemetry's gauge). */
  get waiting(): number {
    return this.#waiting;
  }

  /** Calls running or waiting. */
  get inFlight(): number {
    return this.#running + this.#waiting;
  }

  /**
   * Waits for a place and returns its release; refuses when the caller's share of the queue or the queue is full,
   * when the caller gave up or its deadline passed while it waited, or when the server stops.
   */
  async admit(signal: AbortSignal, admission: Admission = {}): Promise<() => void> {
    if (this.#stopped) throw new CallFailure('shutting_down', 'the server is shutting down: nothing was sent');
    if (signal.aborted) throw cancelledWhileWaiting();
    const client = admission.client ?? LOCAL;
    // The place is taken when it is given (here, or by #next as it wakes the call), so that two releases in one tick
    // cannot give one client more than its share.
    if (this.#mayRun(client)) this.#take(client);
    else await this.#wait(signal, { ...admission, client });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running -= 1;
      const left = this.#runningBy.get(client)! - 1;
      if (left === 0) this.#runningBy.delete(client);
      else this.#runningBy.set(client, left);
      if (!this.#next()) this.#notifyIdle();
    };
  }

  #take(client: string): void {
    this.#running += 1;
    this.#runningBy.set(client, (this.#runningBy.get(client) ?? 0) + 1);
  }

  /** A free place, within the client's share of the running places, and no one of its own already in line. */
  #mayRun(client: string): boolean {
    return (
      this.#running < this.#limits.maxConcurrent &&
      (this.#runningBy.get(client) ?? 0) < this.#limits.maxRunningPerClient &&
      !this.#lines.has(client)
    );
  }

  #wait(signal: AbortSignal, { client = LOCAL, deadline, now = Date.now }: Admission): Promise<void> {
    const line = this.#lines.get(client) ?? [];
    const { maxConcurrent, maxQueued, maxQueuedPerClient } = this.#limits;
    if (this.#waiting >= maxQueued || line.length >= maxQueuedPerClient) {
      const whose = line.length >= maxQueuedPerClient ? `${line.length} of your calls` : `${this.#waiting} calls`;
      throw new CallFailure(
        'busy',
        `the server is busy: ${this.#running} calls are running and ${whose} waiting (SVC_MAX_CONCURRENT_CALLS=${maxConcurrent}, ` +
          `SVC_MAX_QUEUED_CALLS=${maxQueued}). Nothing was sent: retry in a few seconds, or send fewer calls at once`,
      );
    }
    const started = now();
    return new Promise<void>((resolve, reject) => {
      const timer = deadline ? setTimeout(() => leave(timedOut()), Math.max(0, deadline.at - started)) : undefined;
      const waiter: Waiter = {
        go: () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', giveUp);
          resolve();
        },
      };
      const leave = (failure: CallFailure) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', giveUp);
        const mine = this.#lines.get(client);
        const at = mine?.indexOf(waiter) ?? -1;
        if (mine && at !== -1) {
          mine.splice(at, 1);
          if (mine.length === 0) this.#lines.delete(client);
          this.#waiting -= 1;
        }
        reject(failure);
        this.#notifyIdle();
      };
      const giveUp = () => leave(cancelledWhileWaiting());
      const timedOut = () =>
        new CallFailure(
          'timeout',
          `no place to run within the call's deadline (${deadline!.setting}): it waited ${now() - started} ms behind ` +
            `${this.#running} running calls. Nothing was sent: retry when the server is less busy`,
        );
      signal.addEventListener('abort', giveUp, { once: true });
      line.push(waiter);
      this.#lines.set(client, line);
      this.#waiting += 1;
    });
  }

  /**
   * Gives a free place to the first call of the first client, in turn, that is within its share of the running places;
   * false when no one waiting may run.
   */
  #next(): boolean {
    if (this.#running >= this.#limits.maxConcurrent) return false;
    for (const [client, line] of this.#lines) {
      if ((this.#runningBy.get(client) ?? 0) >= this.#limits.maxRunningPerClient) continue;
      const waiter = line.shift();
      // The client goes to the back of the turn (or leaves it, with nothing left waiting).
      this.#lines.delete(client);
      if (line.length > 0) this.#lines.set(client, line);
      if (!waiter) continue;
      this.#waiting -= 1;
      this.#take(client);
      waiter.go();
      return true;
    }
    return false;
  }

  /** Settles when no call is running or waiting. */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Tells every call in flight to stop now; each still answers, saying whether its request was sent. */
  stop(): void {
    this.#stopped ??= new ServerStopping('the server is shutting down');
    for (const controller of this.#open) controller.abort(this.#stopped);
    this.#open.clear();
  }

  #notifyIdle(): void {
    if (this.inFlight !== 0) return;
    const waiters = this.#idle;
    this.#idle = [];
    for (const resolve of waiters) resolve();
  }
}

/** The client of a call that names none (stdio's one client, a local one over HTTP). */
const LOCAL = 'local';

function cancelledWhileWaiting(): CallFailure {
  return new CallFailure('cancelled', 'the call was cancelled while it waited for a place: nothing was sent');
}
