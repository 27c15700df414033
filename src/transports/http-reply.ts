import type { IncomingMessage, ServerResponse } from 'node:http';

/** Small helpers of the HTTP transport: answers the transport gives itself, and request fields. */

/** A JSON-RPC error with no id (the request may not even have been JSON), as the SDK transport answers. */
export function sendRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
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
