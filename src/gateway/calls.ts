import { ServerStopping, ToolFailure } from './errors.js';

export interface CallLimits {
  /** Tool calls running at once, over every session of the process. */
  maxConcurrent: number;
  /** Calls waiting for a place; one more is refused at once. */
  maxQueued: number;
}

/**
 * Every tool call of the process passes here: at most `maxConcurrent` run at once (each may hold an upstream answer
 * in memory), a few more wait, the rest are refused with a clear error; and at shutdown the ones still running can
 * be told to stop, so that each ends with an answer instead of being dropped.
 */
export class Calls {
  readonly #limits: CallLimits;
  /** Set once the server stops the calls in flight. */
  #stopped: ServerStopping | undefined;
  /** The signals of the calls in flight, aborted by stop(). */
  readonly #open = new Set<AbortController>();
  readonly #waiting: (() => void)[] = [];
  #running = 0;
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

  /** Calls running or waiting. */
  get inFlight(): number {
    return this.#running + this.#waiting.length;
  }

  /** Waits for a place and returns its release; refuses when the queue is full, the caller gave up or the server stops. */
  async admit(signal: AbortSignal): Promise<() => void> {
    if (this.#stopped) throw new ToolFailure('shutting_down', 'the server is shutting down: nothing was sent');
    if (this.#running >= this.#limits.maxConcurrent) {
      if (this.#waiting.length >= this.#limits.maxQueued) {
        throw new ToolFailure(
          'busy',
          `the server is busy: ${this.#running} calls are running and ${this.#waiting.length} waiting ` +
            `(SVC_MAX_CONCURRENT_CALLS=${this.#limits.maxConcurrent}). Nothing was sent: try again shortly`,
        );
      }
      if (signal.aborted) throw cancelledWhileWaiting();
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal.removeEventListener('abort', giveUp);
          resolve();
        };
        const giveUp = () => {
          const at = this.#waiting.indexOf(go);
          if (at !== -1) this.#waiting.splice(at, 1);
          reject(cancelledWhileWaiting());
          this.#notifyIdle();
        };
        signal.addEventListener('abort', giveUp, { once: true });
        this.#waiting.push(go);
      });
    }
    this.#running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running -= 1;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#notifyIdle();
    };
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

function cancelledWhileWaiting(): ToolFailure {
  return new ToolFailure('cancelled', 'the call was cancelled while it waited for a place: nothing was sent');
}
