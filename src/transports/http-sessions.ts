/**
 * The live sessions of the HTTP transport in session mode: lookup by id, a cap on how many exist at once
 * (counting those being initialised), in all and per client, idle expiry, and closing them all at shutdown.
 * Knows nothing of HTTP or MCP: a session is anything that can be closed, a client any string (or none).
 */
export interface SessionHandle {
  close(): Promise<void>;
}

interface Entry<S extends SessionHandle> {
  session: S;
  lastSeen: number;
  inFlight: number;
  client?: string;
}

export interface SessionStoreOptions {
  maxSessions: number;
  /** Sessions (live and being initialised) one client may hold; clients without a key are not counted. */
  maxSessionsPerClient?: number;
  idleMs: number;
  now(): number;
  /** Told about each session closed for idleness (for the log). */
  onExpire?(id: string): void;
}

/** Why `reserve` said no: every place is taken, or every place of this client. */
export type Refusal = 'server_full' | 'client_full';

export class SessionStore<S extends SessionHandle> {
  readonly #entries = new Map<string, Entry<S>>();
  readonly #options: SessionStoreOptions;
  /** Live and pending sessions per client key; a key leaves the map when its count reaches 0. */
  readonly #perClient = new Map<string, number>();
  #pending = 0;

  constructor(options: SessionStoreOptions) {
    this.#options = options;
  }

  /** Sessions, live and being initialised, of one client. */
  countOf(client: string): number {
    return this.#perClient.get(client) ?? 0;
  }

  /**
   * Holds a place for a session about to be initialised, or says which cap is reached (after expiring idle
   * sessions). Every 'ok' must be followed by exactly one `unreserve` with the same client.
   */
  reserve(client?: string): 'ok' | Refusal {
    if (this.#refusal(client)) this.sweep();
    const refused = this.#refusal(client);
    if (refused) return refused;
    this.#pending += 1;
    this.#count(client, +1);
    return 'ok';
  }

  unreserve(client?: string): void {
    if (this.#pending === 0) return;
    this.#pending -= 1;
    this.#count(client, -1);
  }

  add(id: string, session: S, client?: string): void {
    this.#entries.set(id, { session, lastSeen: this.#options.now(), inFlight: 0, client });
    this.#count(client, +1);
  }

  get(id: string): S | undefined {
    return this.#entries.get(id)?.session;
  }

  /** The client a session was opened by (undefined for one without a key). */
  clientOf(id: string): string | undefined {
    return this.#entries.get(id)?.client;
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
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#count(entry.client, -1);
  }

  /** Closes sessions idle for longer than the limit; a session with a request in flight is never idle. */
  sweep(): void {
    const cutoff = this.#options.now() - this.#options.idleMs;
    for (const [id, entry] of this.#entries) {
      if (entry.inFlight > 0 || entry.lastSeen > cutoff) continue;
      this.remove(id);
      this.#options.onExpire?.(id);
      void entry.session.close().catch(() => {});
    }
  }

  /** How long until a session of this client can expire: its soonest idle expiry, else the idle time (at least 1 s). */
  retryAfterMs(client: string): number {
    const now = this.#options.now();
    let soonest = this.#options.idleMs;
    for (const entry of this.#entries.values()) {
      if (entry.client !== client || entry.inFlight > 0) continue;
      soonest = Math.min(soonest, entry.lastSeen + this.#options.idleMs - now);
    }
    return Math.max(soonest, 1000);
  }

  async closeAll(): Promise<void> {
    const sessions = [...this.#entries.values()].map((e) => e.session);
    this.#entries.clear();
    this.#perClient.clear();
    await Promise.allSettled(sessions.map((s) => s.close()));
  }

  #refusal(client: string | undefined): Refusal | undefined {
    if (this.#entries.size + this.#pending >= this.#options.maxSessions) return 'server_full';
    const perClient = this.#options.maxSessionsPerClient;
    if (client !== undefined && perClient !== undefined && this.countOf(client) >= perClient) return 'client_full';
    return undefined;
  }

  #count(client: string | undefined, delta: number): void {
    if (client === undefined) return;
    const n = (this.#perClient.get(client) ?? 0) + delta;
    if (n > 0) this.#perClient.set(client, n);
    else this.#perClient.delete(client);
  }
}
