/**
 * One structured line per HTTP request: what was asked (HTTP method, path, JSON-RPC method, tool name),
 * how it ended (status, duration). Never argument values, headers, tokens or session ids.
 */
export interface RequestLogEntry {
  event: 'http_request';
  method: string;
  path: string;
  /** JSON-RPC method(s) of the body; a batch lists each once, comma-separated. */
  rpc?: string;
  /** The tool of a tools/call. */
  tool?: string;
  status: number;
  ms: number;
  /** Why the transport refused the request, when it did (a short stable word). */
  refused?: string;
  /** The protocol era of a POST without a session: 2026 (2026-07-28) or 2025. */
  era?: '2025' | '2026';
}

/** What only the handlers of a request know, for its log line. */
export interface RequestNotes {
  era?: '2025' | '2026';
  rpc?: string;
  tool?: string;
  refused?: string;
  /** A GET stream: activity on its session, not work in flight. */
  longLived?: boolean;
}

export interface RpcSummary {
  rpc?: string;
  tool?: string;
  /** The body holds an initialize request. */
  initialize: boolean;
  /** The body holds at least one request (as opposed to only notifications or responses). */
  hasRequest: boolean;
}

/** Names are logged only when they look like names: a body cannot inject text into the log line. */
const NAME = /^[A-Za-z0-9_./-]{1,100}$/;

export function summariseRpc(body: unknown): RpcSummary {
  const messages = Array.isArray(body) ? body : [body];
  const methods: string[] = [];
  let tool: string | undefined;
  let initialize = false;
  let hasRequest = false;
  for (const message of messages) {
    if (!message || typeof message !== 'object') continue;
    const m = message as { method?: unknown; id?: unknown; params?: unknown };
    if (typeof m.method !== 'string') continue;
    const method = NAME.test(m.method) ? m.method : '(invalid)';
    if (!methods.includes(method)) methods.push(method);
    if (m.id !== undefined) hasRequest = true;
    if (m.method === 'initialize') initialize = true;
    if (m.method === 'tools/call' && tool === undefined) {
      const name = (m.params as { name?: unknown } | undefined)?.name;
      if (typeof name === 'string') tool = NAME.test(name) ? name : '(invalid)';
    }
  }
  const summary: RpcSummary = { initialize, hasRequest };
  if (methods.length) summary.rpc = methods.join(',');
  if (tool !== undefined) summary.tool = tool;
  return summary;
}

export function formatRequestLog(entry: RequestLogEntry): string {
  return JSON.stringify(entry);
}
