/**
 * The live sessions of the HTTP transport in session mode: lookup by id, a cap on how many exist at once
 * (counting those being initialised), in all and per client, idle expiry, and closing them all at shutdown.
 * Knows nothing of HTTP or MCP: a session is anything that can be closed, a client any string (or none).
 *
 * A cap makes room before it refuses: a leaked session (a script that exits without DELETE) hurts only its own
 * client. At a client's cap, that client's least recently used idle session is closed; at the server's cap, the
 * least recently used idle session of the client holding the most sessions (the newcomer counted with the one it
 * asks for, so that at a tie it gives way itself). Idle: no request in flight and no open stream. When none is idle,
 * a client holding more sessions than the newcomer would hold with its new one gives up its least recently used
 * session that only listens (an open stream, no request in flight): a few clients that keep their streams open cannot
 * hold every place. A session with a request in flight is never closed to make room: only when every session in the
 * way has one, or the newcomer already holds as many as any other, is a new one refused.
 */
export interface SessionHandle {
  close(): Promise<void>;
}

interface Entry<S extends SessionHandle> {
  session: S;
  lastSeen: number;
  inFlight: number;
  /** Open streams (GET /mcp): a client listening is using its session. */
  streams: number;
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
  /** Told about each idle session closed to make room under a cap (for the log): which cap, its idle time. */
  onEvict?(cap: Refusal, idleMs: number): void;
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
   * Holds a place for a session about to be initialised, or says which cap is reached when every session in the
   * way is live (after expiring idle sessions, then closing idle ones to make room). Every 'ok' must be followed by
   * exactly one `unreserve` with the same client.
   */
  reserve(client?: string): 'ok' | Refusal {
    if (this.#refusal(client)) this.sweep();
    while (this.#refusal(client)) {
      // At its own cap a client makes room with its own sessions first (which frees a server place too).
      const cap: Refusal = this.#atClientCap(client) ? 'client_full' : 'server_full';
      const victim =
        cap === 'client_full'
          ? this.#leastRecentIdle(client)
          : (this.#idleOfTheMost(client) ?? this.#listeningOfTheMost(client));
      if (!victim) return cap;
      const [id, entry] = victim;
      this.remove(id);
      this.#options.onEvict?.(cap, this.#options.now() - entry.lastSeen);
      void entry.session.close().catch(() => {});
    }
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
    this.#entries.set(id, { session, lastSeen: this.#options.now(), inFlight: 0, streams: 0, client });
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

  /**
   * Marks a stream of the session as open; the returned function marks it as closed. A stream is activity, and
   * keeps its session from being closed to make room, but not from idle expiry: a listening client that sends no
   * request for SVC_MCP_SESSION_IDLE_MS still loses it.
   */
  openStream(id: string): () => void {
    const entry = this.#entries.get(id);
    if (!entry) return () => {};
    entry.streams += 1;
    entry.lastSeen = this.#options.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.streams -= 1;
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

  /** The least recently used idle session of one client. */
  #leastRecentIdle(client: string | undefined): [string, Entry<S>] | undefined {
    let found: [string, Entry<S>] | undefined;
    for (const pair of this.#entries) {
      const entry = pair[1];
      if (entry.client !== client || !idle(entry)) continue;
      if (!found || entry.lastSeen < found[1].lastSeen) found = pair;
    }
    return found;
  }

  /**
   * The least recently used idle session of the client holding the most sessions among those with an idle one;
   * `newcomer` counts the session it asks for, and wins ties, so that it does not take a place from an equal.
   */
  #idleOfTheMost(newcomer: string | undefined): [string, Entry<S>] | undefined {
    let found: [string, Entry<S>] | undefined;
    let best: [number, number, number] | undefined;
    for (const pair of this.#entries) {
      const entry = pair[1];
      if (!idle(entry)) continue;
      const mine = entry.client === newcomer ? 1 : 0;
      const held = (entry.client === undefined ? 0 : this.countOf(entry.client)) + mine;
      // Most held first, then the newcomer's own, then the least recently used.
      const rank: [number, number, number] = [held, mine, -entry.lastSeen];
      if (
        !best ||
        rank[0] > best[0] ||
        (rank[0] === best[0] && (rank[1] > best[1] || (rank[1] === best[1] && rank[2] > best[2])))
      ) {
        found = pair;
        best = rank;
      }
    }
    return found;
  }

  /**
   * Under the server's cap with no idle session: the least recently used session that only listens, of the client
   * holding the most, when it holds more than the newcomer would with its new session (so that with n clients each
   * keeps at least its share). Its client's next request gets 404 and initialises again, as after an idle expiry.
   */
  #listeningOfTheMost(newcomer: string | undefined): [string, Entry<S>] | undefined {
    const wanted = (newcomer === undefined ? 0 : this.countOf(newcomer)) + 1;
    let found: [string, Entry<S>] | undefined;
    let most = 0;
    for (const pair of this.#entries) {
      const entry = pair[1];
      if (entry.inFlight > 0 || entry.client === undefined || entry.client === newcomer) continue;
      const held = this.countOf(entry.client);
      // Giving one up, it still holds at least as many as the newcomer.
      if (held <= wanted) continue;
      if (!found || held > most || (held === most && entry.lastSeen < found[1].lastSeen)) {
        found = pair;
        most = held;
      }
    }
    return found;
  }

  #refusal(client: string | undefined): Refusal | undefined {
    if (this.#entries.size + this.#pending >= this.#options.maxSessions) return 'server_full';
    if (this.#atClientCap(client)) return 'client_full';
    return undefined;
  }

  #atClientCap(client: string | undefined): boolean {
    const perClient = this.#options.maxSessionsPerClient;
    return client !== undefined && perClient !== undefined && this.countOf(client) >= perClient;
  }

  #count(client: string | undefined, delta: number): void {
    if (client === undefined) return;
    const n = (this.#perClient.get(client) ?? 0) + delta;
    if (n > 0) this.#perClient.set(client, n);
    else this.#perClient.delete(client);
  }
}

/** No request in flight and no open stream: a session that may be closed to make room. */
function idle(entry: { inFlight: number; streams: number }): boolean {
  return entry.inFlight === 0 && entry.streams === 0;
}
