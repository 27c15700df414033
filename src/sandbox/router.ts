import type { Route } from './types.js';

/**
 * Method + path matching for the sandbox. Literal segments are compared as received; parameter segments are
 * percent-decoded. A parameter that decodes to '', '.', '..' or contains '/' never matches, so an encoded
 * value cannot climb into another endpoint.
 */

export type RouteMatch =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'not-found' }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'bad-path'; details: string };

type Segment = { literal: string } | { param: string };

function compile(pattern: string): Segment[] {
  if (!pattern.startsWith('/')) throw new Error(`route pattern must start with '/': ${pattern}`);
  return pattern
    .slice(1)
    .split('/')
    .map((s) => (s.startsWith(':') ? { param: s.slice(1) } : { literal: s }));
}

/** The key faults are set by: 'METHOD /pattern'. */
export const routeKey = (route: Pick<Route, 'method' | 'pattern'>): string => `${route.method} ${route.pattern}`;

export class Router {
  private readonly compiled: { route: Route; segments: Segment[] }[] = [];

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      const segments = compile(route.pattern);
      // Registration order must never decide which handler runs: refuse patterns that can match the same request.
      const clash = this.compiled.find((c) => c.route.method === route.method && overlaps(c.segments, segments));
      if (clash) throw new Error(`sandbox routes overlap: ${routeKey(clash.route)} and ${routeKey(route)}`);
      this.compiled.push({ route, segments });
    }
  }

  match(method: string, pathname: string): RouteMatch {
    if (!pathname.startsWith('/')) return { kind: 'not-found' };
    const raw = pathname.slice(1).split('/');
    const allow: string[] = [];
    for (const { route, segments } of this.compiled) {
      const params = matchSegments(segments, raw);
      if (params === undefined) continue;
      if (params === 'bad-encoding') return { kind: 'bad-path', details: 'malformed percent-encoding in the path' };
      if (route.method === method) return { kind: 'route', route, params };
      allow.push(route.method);
    }
    return allow.length > 0 ? { kind: 'method-not-allowed', allow } : { kind: 'not-found' };
  }
}

function matchSegments(segments: Segment[], raw: string[]): Record<string, string> | 'bad-encoding' | undefined {
  if (segments.length !== raw.length) return undefined;
  const params: Record<string, string> = {};
  let badEncoding = false;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const value = raw[i]!;
    if ('literal' in segment) {
      if (segment.literal !== value) return undefined;
      continue;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(value);
    } catch {
      badEncoding = true;
      continue;
    }
    if (decoded === '' || decoded === '.' || decoded === '..' || decoded.includes('/')) return undefined;
    params[segment.param] = decoded;
  }
  return badEncoding ? 'bad-encoding' : params;
}

function overlaps(a: Segment[], b: Segment[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((s, i) => {
    const t = b[i]!;
    return 'param' in s || 'param' in t || s.literal === t.literal;
  });
}
