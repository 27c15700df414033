import type { IncomingMessage, ServerResponse } from 'node:http';

/** Small helpers of the HTTP transport: answers the transport gives itself, and request fields. */

/**
 * A JSON-RPC error the transport answers itself: with the request's id when it could be read (see `rpcIdOf`),
 * else `null` (the request may not even have been JSON), as the SDK transport answers.
 */
export function sendRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: string | number | null = null,
): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id });
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * The id an error answer to this body carries: the id of a single request, when it is one MCP allows (a string or
 * an integer); else null (a batch, a notification, no id, or an id of another type: then the id is the fault).
 */
export function rpcIdOf(body: unknown): string | number | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || Number.isSafeInteger(id) ? (id as string | number) : null;
}

/** The path of the request, without the query. */
export function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function sessionIdOf(req: IncomingMessage): string | undefined {
  const value = req.headers['mcp-session-id'];
  const id = Array.isArray(value) ? value[0] : value;
  return id ? id : undefined;
}
