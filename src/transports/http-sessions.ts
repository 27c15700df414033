/**
 * The live sessions of the HTTP transport in session mode: lookup by id, a cap on how many exist at once
 * (counting those being initialised), idle expiry, and closing them all at shutdown. Knows nothing of
 * HTTP or MCP: a session is anything that can be closed.
 */
export interface SessionHandle {
  close(): Promise<void>;
}

interface Entry<S extends SessionHandle> {
  session: S;
  lastSeen: number;
  inFlight: number;
}

export interface SessionStoreOptions {
  maxSessions: number;
  idleMs: number;
  now(): number;
  /** Told about each session closed for idleness (for the log). */
  onExpire?(id: string): void;
}

export class SessionStore<S extends SessionHandle> {
  readonly #entries = new Map<string, Entry<S>>();
  readonly #options: SessionStoreOptions;
  #pending = 0;

  constructor(options: SessionStoreOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * Holds a place for a session about to be initialised; false when the cap is reached (after expiring
   * idle sessions). Every true must be followed by exactly one `unreserve`.
   */
  reserve(): boolean {
    if (this.#entries.size + this.#pending >= this.#options.maxSessions) this.sweep();
    if (this.#entries.size + this.#pending >= this.#options.maxSessions) return false;
    this.#pending += 1;
    return true;
  }

  unreserve(): void {
    if (this.#pending > 0) this.#pending -= 1;
  }

  add(id: string, session: S): void {
    this.#entries.set(id, { session, lastSeen: this.#options.now(), inFlight: 0 });
  }

  get(id: string): S | undefined {
    return this.#entries.get(id)?.session;
  }

  /** Marks a request on the session as started; the returned function marks it as ended. */
  begin(id: string): () => void {
    const entry = this.#entries.get(id);
    if (!entry) return () => {};
    entry.inFlight += 1;
    entry.lastSeen = this.#options.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.inFlight -= 1;
      entry.lastSeen = this.#options.now();
    };
  }

  /** Forgets a session (it closed itself, or a DELETE ended it). */
  remove(id: string): void {
    this.#entries.delete(id);
  }

  /** Closes sessions idle for longer than the limit; a session with a request in flight is never idle. */
  sweep(): void {
    const cutoff = this.#options.now() - this.#options.idleMs;
    for (const [id, entry] of this.#entries) {
      if (entry.inFlight > 0 || entry.lastSeen > cutoff) continue;
      this.#entries.delete(id);
      this.#options.onExpire?.(id);
      void entry.session.close().catch(() => {});
    }
  }

  async closeAll(): Promise<void> {
    const sessions = [...this.#entries.values()].map((e) => e.session);
    this.#entries.clear();
    await Promise.allSettled(sessions.map((s) => s.close()));
  }
}
