import { TOOL_DEFINITIONS } from './tool-definitions.js';
import type { Narrowing } from './tool-policy.js';

/**
 * The OAuth scopes of the server (names fixed: authorization servers are configured with them) and what each
 * allows. Which scope a tool needs follows from its annotations, the catalogue's one statement of what a tool
 * does: read-only tools need svc.read, destructive ones svc.destructive, every other svc.write. A scope grants its
 * own class of tools only: svc.destructive without svc.write is E11 and E15 alone.
 */
const SCOPES = {
  read: 'svc.read',
  write: 'svc.write',
  destructive: 'svc.destructive',
} as const;
export type Scope = (typeof SCOPES)[keyof typeof SCOPES];
export const SCOPES_SUPPORTED: readonly Scope[] = Object.values(SCOPES);

/** The scope a call of this tool needs; undefined for a name that is no tool (the server answers that itself). */
export function scopeOfTool(name: string): Scope | undefined {
  if (!Object.hasOwn(TOOL_DEFINITIONS, name)) return undefined;
  const annotations = TOOL_DEFINITIONS[name]!.annotations;
  if (annotations?.readOnlyHint === true) return SCOPES.read;
  return annotations?.destructiveHint === true ? SCOPES.destructive : SCOPES.write;
}

/** The methods that read through the tools' services without being a tool call: resources, prompts, completion. */
const READ_METHODS = new Set(['resources/read', 'prompts/get', 'completion/complete']);

/**
 * The scopes a JSON-RPC body (one message or a batch) needs beyond a valid token, missing from `granted`: empty
 * when it may go on. Listings, initialize, ping and notifications need none (a listing shows what the token may
 * use).
 */
export function missingScopes(body: unknown, granted: readonly string[]): Scope[] {
  const missing = new Set<Scope>();
  for (const message of Array.isArray(body) ? body : [body]) {
    const m = message as { method?: unknown; params?: { name?: unknown } } | null;
    if (!m || typeof m.method !== 'string') continue;
    let needed: Scope | undefined;
    if (m.method === 'tools/call' && typeof m.params?.name === 'string') needed = scopeOfTool(m.params.name);
    else if (READ_METHODS.has(m.method)) needed = SCOPES.read;
    if (needed && !granted.includes(needed)) missing.add(needed);
  }
  return SCOPES_SUPPORTED.filter((s) => missing.has(s));
}

/** The tools a token's scopes allow, as a narrowing: it only ever takes tools away from the operator's choice. */
export function scopeNarrowing(granted: readonly string[]): Narrowing {
  return { tools: Object.keys(TOOL_DEFINITIONS).filter((name) => granted.includes(scopeOfTool(name)!)) };
}
