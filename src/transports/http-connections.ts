/**
 * The open connections of the HTTP server, with a share per client address of SVC_MCP_MAX_CONNECTIONS. A
 * connection counts for the peer's address from the moment it is accepted, before its headers (a slow sender of
 * headers holds one as surely as a stream does). Work-conserving: a lone address may hold every connection. Over
 * the cap, an idle connection (no request being served: headers still arriving, or kept alive between requests)
 * of the address holding the most is closed, its least recently active first; the newcomer counts its new
 * connection and wins ties, so that it never takes a place from an address holding no more than it does. A
 * connection serving a request (a stream, a call) is never closed: when every one in the way is busy, the new
 * connection is the one closed. Knows nothing of HTTP: a connection is anything that can be destroyed.
 */
export interface Connection {
  destroy(): void;
}

export class ConnectionShares<C extends Connection> {
  readonly #max: number;
  /** Each address's connections, the least recently active first (a Set keeps insertion order). */
  readonly #by = new Map<string, Set<C>>();
  readonly #addressOf = new Map<C, string>();
  /** Requests being served per connection (only connections with some). */
  readonly #busy = new Map<C, number>();
  readonly #onClose: () => void;

  /** `onClose` is told about each connection closed for the cap (for the log). */
  constructor(max: number, onClose: () => void) {
    this.#max = max;
    this.#onClose = onClose;
  }

  get size(): number {
    return this.#addressOf.size;
  }

  /** Counts a connection just accepted; over the cap, closes one (see above), perhaps this one. */
  accept(connection: C, address: string): void {
    const mine = this.#by.get(address) ?? new Set<C>();
    mine.add(connection);
    this.#by.set(address, mine);
    this.#addressOf.set(connection, address);
    while (this.size > this.#max) {
      const victim = this.#idleOfTheMost(address);
      if (!victim) break;
      this.forget(victim);
      this.#onClose();
      victim.destroy();
    }
  }

  /** The connection closed (whoever closed it). */
  forget(connection: C): void {
    const address = this.#addressOf.get(connection);
    if (address === undefined) return;
    this.#addressOf.delete(connection);
    this.#busy.delete(connection);
    const mine = this.#by.get(address)!;
    mine.delete(connection);
    if (mine.size === 0) this.#by.delete(address);
  }

  /** A request on the connection began; the returned function says it ended. */
  begin(connection: C): () => void {
    const address = this.#addressOf.get(connection);
    if (address === undefined) return () => {};
    this.#busy.set(connection, (this.#busy.get(connection) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended || !this.#addressOf.has(connection)) return;
      ended = true;
      const left = this.#busy.get(connection)! - 1;
      if (left > 0) return void this.#busy.set(connection, left);
      this.#busy.delete(connection);
      // Active just now: to the back of its address's line.
      const mine = this.#by.get(address)!;
      mine.delete(connection);
      mine.add(connection);
    };
  }

  #idleOfTheMost(newcomer: string): C | undefined {
    let found: C | undefined;
    let best = -1;
    for (const [address, mine] of this.#by) {
      const held = mine.size;
      if (held < best || (held === best && address !== newcomer)) continue;
      let idle: C | undefined;
      for (const connection of mine) {
        if (this.#busy.has(connection)) continue;
        idle = connection;
        break;
      }
      if (!idle) continue;
      found = idle;
      best = held;
    }
    return found;
  }
}
