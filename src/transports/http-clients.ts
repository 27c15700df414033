import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { isLoopback } from '../util/loopback.js';
import { parseAddressOrBlock, unmapped } from '../util/addresses.js';

/**
 * Who a request comes from, for the limits that are per client (sessions, failed token attempts). A static token
 * cannot say: there is one SVC_MCP_AUTH_TOKEN, shared by every client (OAuth mode's tokens can: see subjectKey,
 * which replaces the address once a token is verified). So a client is its address: the TCP
 * peer, or, when the peer is a reverse proxy listed in SVC_MCP_TRUSTED_PROXIES, the address that proxy reports
 * in X-Forwarded-For. An IPv6 client is its /64 (one host usually owns a whole /64).
 *
 * A loopback address is a client like any other (127.0.0.1, 127.0.0.2 and ::1 are three): a process on this host, or
 * a local reverse proxy (nginx in docs/deploying.md). A proxy that is not listed in SVC_MCP_TRUSTED_PROXIES brings
 * every client behind it as that one client, which then share one client's sessions and places: the server says so
 * once when it sees X-Forwarded-For from such a peer (see forwardedByUnlisted). Wrong tokens do not slow a loopback
 * address down (http.ts): that would lock every client of such a proxy out.
 */

/** The reverse proxies whose X-Forwarded-For is believed: addresses and CIDR blocks, already validated. */
export function trustedProxies(entries: readonly string[] = []): BlockList | undefined {
  if (entries.length === 0) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const parsed = parseAddressOrBlock(entry);
    if (!parsed) throw new Error(`not an IP address or CIDR block: ${entry}`);
    if (parsed.prefix === undefined) list.addAddress(parsed.address, parsed.family);
    else list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return list;
}

/**
 * The client's address: the peer, or the rightmost X-Forwarded-For hop that is not itself a trusted proxy when
 * the peer is one (each proxy appends the address it received the request from; what is left of the
 * trusted ones could have been written by the client). Every hop trusted: the leftmost.
 */
export function clientAddress(
  req: Pick<IncomingMessage, 'headers' | 'socket'>,
  trusted: BlockList | undefined,
): string {
  const peer = unmapped(req.socket.remoteAddress ?? '');
  if (!trusted || !isTrusted(trusted, peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((hop) => withoutPort(hop.trim()))
    .filter(Boolean);
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    client = hops[i]!;
    if (!isTrusted(trusted, client)) break;
  }
  return client;
}

/** The key of the per-client limits; undefined only when the peer's address is unknown (a socket already gone). */
export function clientKey(address: string): string | undefined {
  if (!address) return undefined;
  // Each loopback address is its own client (::1 too, not the /64 of which it is the only host).
  if (isLoopback(address)) return address;
  if (isIP(address) === 6) {
    const groups = ipv6Groups(address);
    if (groups)
      return `${groups
        .slice(0, 4)
        .map((g) => g.toString(16))
        .join(':')}::/64`;
  }
  // IPv4, or a hop a proxy wrote that is no address at all: its own client, kept short.
  return address.slice(0, 64);
}

/**
 * The key of a connection's peer, known from the moment it is accepted (before any header: X-Forwarded-For cannot
 * count yet, so behind a proxy its connections are the proxy's). '' when the socket is already gone.
 */
export function peerKey(remoteAddress: string | undefined): string {
  return clientKey(unmapped(remoteAddress ?? '')) ?? '';
}

/**
 * In OAuth mode a client is a user: the token's subject, whatever address it comes from, so that users behind one
 * proxy or NAT take turns as themselves (and one cannot take another's places). Marked, so that it never equals
 * an address.
 */
export function subjectKey(subject: string): string {
  return `sub:${subject}`;
}

/**
 * Whether the request came from a peer not listed in SVC_MCP_TRUSTED_PROXIES that carries X-Forwarded-For: most likely
 * a reverse proxy whose clients all count as one (an operator who forgot to list it). A client may send the header
 * itself too, so this only warrants a word in the log, never a change of behaviour.
 */
export function forwardedByUnlisted(
  req: Pick<IncomingMessage, 'headers' | 'socket'>,
  trusted: BlockList | undefined,
): boolean {
  if (req.headers['x-forwarded-for'] === undefined) return false;
  const peer = unmapped(req.socket.remoteAddress ?? '');
  return !trusted || !isTrusted(trusted, peer);
}

function isTrusted(list: BlockList, address: string): boolean {
  const version = isIP(address);
  return version !== 0 && list.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

/** Some proxies write `10.0.0.5:51234` or `[2001:db8::1]:51234`. */
function withoutPort(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed) return unmapped(bracketed[1]!);
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(hop);
  return unmapped(v4 ? v4[1]! : hop);
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, an IPv4 tail converted). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const groups =
    halves.length === 2 ? [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail] : head;
  if (groups.length !== 8) return undefined;
  return groups.map((g) => parseInt(g, 16));
}

export interface BackoffOptions {
  /** Failures a client may have before the first refusal. */
  freeFailures: number;
  /** The first refusal lasts this long; each further failure doubles it, up to `maxBlockMs`. */
  firstBlockMs: number;
  maxBlockMs: number;
  /** A client with no failure for this long starts afresh. */
  forgetMs: number;
  /** Clients remembered at most: the one whose last failure is the oldest goes first. */
  maxClients: number;
  now(): number;
}

/**
 * Failed token attempts: 5 free, then refused for 1 s, 2 s, 4 s ... 60 s after each failure; forgotten after 15 min.
 */
export const AUTH_BACKOFF = {
  freeFailures: 5,
  firstBlockMs: 1000,
  maxBlockMs: 60_000,
  forgetMs: 15 * 60_000,
  maxClients: 10_000,
} as const;

interface Failures {
  count: number;
  last: number;
  blockedUntil: number;
}

/**
 * Slows down a client that keeps failing (a wrong token): after a few failures every request of that client is
 * refused, unchecked, for a time that grows with each further failure. Memory is bounded: at most `maxClients`
 * records, the stalest dropped first (a Map keeps them in the order of their last failure).
 */
export class FailureBackoff {
  readonly #records = new Map<string, Failures>();
  readonly #options: BackoffOptions;

  constructor(options: BackoffOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#records.size;
  }

  /** How long the client must wait before a request of its is looked at again; 0: now. */
  waitMs(client: string): number {
    const record = this.#records.get(client);
    return record ? Math.max(0, record.blockedUntil - this.#options.now()) : 0;
  }

  /** Counts a failure; returns the wait it brings (0 while the client has free failures left). */
  fail(client: string): number {
    const { freeFailures, firstBlockMs, maxBlockMs, forgetMs, now } = this.#options;
    const at = now();
    const previous = this.#records.get(client);
    const count = previous && at - previous.last < forgetMs ? previous.count + 1 : 1;
    const over = count - freeFailures;
    const wait = over > 0 ? Math.min(firstBlockMs * 2 ** (over - 1), maxBlockMs) : 0;
    this.#records.delete(client);
    this.#records.set(client, { count, last: at, blockedUntil: at + wait });
    for (const [key, record] of this.#records) {
      if (this.#records.size <= this.#options.maxClients && at - record.last < forgetMs) break;
      this.#records.delete(key);
    }
    return wait;
  }
}
