import type { IncomingHttpHeaders } from 'node:http';
import { LOOPBACK_HOSTS } from '../util/loopback.js';
import { timingSafeEqualText } from '../util/timing-safe.js';

/**
 * Request checks of the HTTP transport that need no MCP knowledge: Host and Origin against DNS rebinding,
 * and the bearer token. Pure functions of the headers and the policy, so that they are tested directly.
 */

export interface HostPolicy {
  /** Exact `host:port` values accepted in the Host header (lower case, IPv6 in brackets). */
  hosts: ReadonlySet<string>;
  /** Host names accepted with any port (configured entries without a port). */
  hostnames: ReadonlySet<string>;
  /** Exact origins accepted in the Origin header (scheme://host[:port], lower case, no trailing slash). */
  origins: ReadonlySet<string>;
  /** Origins configured by the operator: only these get CORS headers. */
  corsOrigins: ReadonlySet<string>;
}

const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]', '']);

/**
 * The defaults come from the bind address and the port actually bound: the loopback names with that port,
 * and the bind address itself when it is a concrete address. Configured hosts and origins are added to them.
 */
export function hostPolicy(
  bind: { host: string; port: number },
  allowedHosts: readonly string[] = [],
  allowedOrigins: readonly string[] = [],
): HostPolicy {
  const hosts = new Set<string>();
  const hostnames = new Set<string>();
  const origins = new Set<string>();
  const names: string[] = LOOPBACK_HOSTS.map(bracketed);
  const bindName = bracketed(bind.host.toLowerCase());
  if (!WILDCARD_BINDS.has(bind.host) && !names.includes(bindName)) names.push(bindName);
  for (const name of names) {
    hosts.add(`${name}:${bind.port}`);
    if (bind.port === 80) hosts.add(name);
    origins.add(`http://${name}:${bind.port}`);
    if (bind.port === 80) origins.add(`http://${name}`);
  }
  for (const entry of allowedHosts) {
    const value = entry.trim().toLowerCase();
    if (!value) continue;
    if (hasPort(value)) hosts.add(value);
    else hostnames.add(bracketed(value));
  }
  const corsOrigins = new Set<string>();
  for (const entry of allowedOrigins) {
    const value = normaliseOrigin(entry);
    if (!value) continue;
    origins.add(value);
    corsOrigins.add(value);
  }
  return { hosts, hostnames, origins, corsOrigins };
}

/** True when the Host header names this server (a missing Host header is refused: HTTP/1.1 requires it). */
export function hostAllowed(policy: HostPolicy, hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  const host = hostHeader.trim().toLowerCase();
  if (policy.hosts.has(host)) return true;
  const name = hostnameOf(host);
  return name !== undefined && policy.hostnames.has(name);
}

/** A request without Origin (every non-browser client) passes; a browser's Origin must be one we allow. */
export function originAllowed(policy: HostPolicy, originHeader: string | undefined): boolean {
  if (originHeader === undefined) return true;
  const origin = normaliseOrigin(originHeader);
  return origin !== undefined && policy.origins.has(origin);
}

/** CORS headers for an allowed, operator-configured origin; none otherwise (never a wildcard). */
export function corsHeaders(policy: HostPolicy, originHeader: string | undefined): Record<string, string> {
  const origin = originHeader === undefined ? undefined : normaliseOrigin(originHeader);
  if (!origin || !policy.corsOrigins.has(origin)) return {};
  return {
    'Access-Control-Allow-Origin': originHeader!.trim(),
    'Access-Control-Expose-Headers': 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate',
    Vary: 'Origin',
  };
}

export const CORS_PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  // 2025 sessions, then the 2026-07-28 standard headers, then this server's narrowing headers.
  'Access-Control-Allow-Headers':
    'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name, X-MCP-Read-Only, X-MCP-Tools',
  'Access-Control-Max-Age': '600',
};

export type BearerCheck = 'ok' | 'missing' | 'invalid';

/** A token checker that compares in constant time. */
export function bearerChecker(token: string): (headers: IncomingHttpHeaders) => BearerCheck {
  return (headers) => {
    const header = headers.authorization;
    if (!header) return 'missing';
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    if (!match) return 'invalid';
    return timingSafeEqualText(match[1]!, token) ? 'ok' : 'invalid';
  };
}

function normaliseOrigin(text: string): string | undefined {
  const value = text.trim();
  if (!value || value === 'null') return undefined;
  try {
    const url = new URL(value);
    if (url.origin === 'null') return undefined;
    return url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}

function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

function hasPort(host: string): boolean {
  return /^\[[^\]]*\]:\d+$/.test(host) || /^[^:[\]]+:\d+$/.test(host);
}

function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
