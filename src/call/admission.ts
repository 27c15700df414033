import { ServerStopping, CallFailure, nothingSent } from '../failures.js';
import { envName } from '../config/index.js';

export interface CallLimits {
  /** Tool calls running at once, over every client of the process: each may hold an upstream answer in memory. */
  maxConcurrent: number;
  /** Calls waiting for a place, over every client. Waiting costs little memory. */
  maxQueued: number;
}

/** How one call asks for a place. */
export interface Admission {
  /** Who asks (a session, a client address, stdio's one client): clients share the places under contention. */
  client?: string;
  /** When the call must end (epoch ms): the wait counts toward it, and a call still waiting then gives up. */
  deadline?: { at: number; setting: string };
  now?: () => number;
}

interface Waiter {
  go(): void;
  /** Leaves the line refused: another client needed the place. */
  refuse(failure: CallFailure): void;
}

/**
 * Every tool call of the process passes here: at most `maxConcurrent` run at once (each may hold an upstream answer
 * in memory); the others wait, cheaply, for a place, up to `maxQueued` of them. Work-conserving: a lone client may
 * use every running and every waiting place. Shares apply only under contention:
 * - a free place goes to the waiting client with the fewest calls running (in turn among equals), so that a newcomer
 *   starts before the next call of a client that already runs many;
 * - with every waiting place taken, a call that would leave its client holding fewer places (running and waiting)
 *   than another client holds takes the newest waiting place of the client holding the most, which is refused with
 *   [busy]; otherwise the new call is the one refused.
 * So with n clients asking, each keeps at least 1/n of the places. At shutdown the calls still running can be told to
 * stop, so that each ends with an answer instead of being dropped.
 */
export class Calls {
  readonly #limits: CallLimits;
  /** Set once the server stops the calls in flight. */
  #stopped: ServerStopping | undefined;
  /** The signals of the calls in flight, aborted by stop(). */
  readonly #open = new Set<AbortController>();
  /** Each client's line, oldest first; the Map's order is the turn among clients with as many calls running. */
  readonly #lines = new Map<string, Waiter[]>();
  #waiting = 0;
  #running = 0;
  /** Running calls per client (only clients with some). */
  readonly #runningBy = new Map<string, number>();
  #idle: (() => void)[] = [];

  constructor(limits: CallLimits) {
    this.#limits = limits;
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
   * Waits for a place and returns its release; refuses when the queue is full and the caller holds the most places,
   * when another client needed its waiting place, when the caller gave up or its deadline passed while it waited, or
   * when the server stops.
   */
  async admit(signal: AbortSignal, admission: Admission = {}): Promise<() => void> {
    if (this.#stopped) throw new CallFailure('shutting_down', nothingSent('the server is shutting down'));
    if (signal.aborted) throw cancelledWhileWaiting();
    const client = admission.client ?? LOCAL;
    // The place is taken when it is given (here, or by #next as it wakes the call), so that two releases in one tick
    // cannot give one place twice. A free place with calls waiting does not last: #next gives it at once.
    if (this.#running < this.#limits.maxConcurrent && this.#waiting === 0) this.#take(client);
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

  /** Places a client holds: its calls running and waiting. */
  #held(client: string): number {
    return (this.#runningBy.get(client) ?? 0) + (this.#lines.get(client)?.length ?? 0);
  }

  /**
   * With the queue full: the client whose newest waiting call gives way to `client`'s, or undefined when `client`
   * holds as many places as any client with a call waiting (then its own call is the one refused). The one giving way
   * keeps at least as many places as `client` then has.
   */
  #yielding(client: string): string | undefined {
    let most: string | undefined;
    let mostHeld = this.#held(client) + 1;
    for (const other of this.#lines.keys()) {
      const held = this.#held(other);
      if (other !== client && held > mostHeld) {
        most = other;
        mostHeld = held;
      }
    }
    return most;
  }

  #wait(signal: AbortSignal, { client = LOCAL, deadline, now = Date.now }: Admission): Promise<void> {
    const { maxConcurrent, maxQueued } = this.#limits;
    if (this.#waiting >= maxQueued) {
      const yielding = this.#yielding(client);
      if (yielding === undefined) {
        throw busy(
          `${this.#running} calls are running and ${this.#waiting} waiting, ${this.#held(client)} of them yours`,
          this.#limits,
        );
      }
      // The newest waiting call of the client holding the most gives way (it waited least).
      this.#lines
        .get(yielding)!
        .at(-1)!
        .refuse(
          busy(
            `another client needed a place and yours held the most (${this.#held(yielding)} of ` +
              `${maxConcurrent + maxQueued})`,
            this.#limits,
          ),
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
        refuse: (failure) => leave(failure),
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
          nothingSent(
            `no place to run within the call's deadline (${deadline!.setting}): it waited ${now() - started} ms ` +
              `behind ${this.#running} running calls; retry when the server is less busy`,
          ),
        );
      signal.addEventListener('abort', giveUp, { once: true });
      const line = this.#lines.get(client);
      if (line) line.push(waiter);
      else this.#lines.set(client, [waiter]);
      this.#waiting += 1;
    });
  }

  /**
   * Gives a free place to the oldest call of the waiting client with the fewest calls running (the first in turn
   * among equals); false when no one waits or no place is free.
   */
  #next(): boolean {
    if (this.#running >= this.#limits.maxConcurrent) return false;
    let chosen: string | undefined;
    let fewest = Infinity;
    for (const client of this.#lines.keys()) {
      const running = this.#runningBy.get(client) ?? 0;
      if (running < fewest) {
        chosen = client;
        fewest = running;
        if (running === 0) break;
      }
    }
    if (chosen === undefined) return false;
    const line = this.#lines.get(chosen)!;
    const waiter = line.shift()!;
    // The client goes to the back of the turn (or leaves it, with nothing left waiting).
    this.#lines.delete(chosen);
    if (line.length > 0) this.#lines.set(chosen, line);
    this.#waiting -= 1;
    this.#take(chosen);
    waiter.go();
    return true;
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

function busy(why: string, { maxConcurrent, maxQueued }: CallLimits): CallFailure {
  return new CallFailure(
    'busy',
    nothingSent(
      `the server is busy: ${why} (${envName('SVC_MAX_CONCURRENT_CALLS')}=${maxConcurrent}, ` +
        `${envName('SVC_MAX_QUEUED_CALLS')}=${maxQueued}); retry in a few seconds, or send fewer calls at once`,
    ),
  );
}

function cancelledWhileWaiting(): CallFailure {
  return new CallFailure('cancelled', nothingSent('the call was cancelled while it waited for a place'));
}
