import type { AnyOperation } from '../catalogue/types.js';
import type { Route } from './types.js';

/**
 * The sandbox route of a catalogue operation: its method, path and auth scheme come from the catalogue (one home for
 * them); `{name}` placeholders become `:name` parameters. `path` replaces the operation's path where a placeholder is
 * not a parameter (E1/E2: one route per Region segment).
 */
export function routeOf(op: AnyOperation, handle: Route['handle'], path: string = op.path): Route {
  return { method: op.method, pattern: path.replace(/\{(\w+)\}/g, ':$1'), auth: op.auth, handle };
}
