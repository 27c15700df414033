/** The envelope of a 2026-07-28 request, with the standard `_meta` keys; `extra` adds or overrides some. */
export function envelope(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'svc-platform-mcp-tests', version: '0.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
    ...extra,
  };
}

/**
 * One 2026-07-28 request as raw HTTP: the standard headers from the method and name (unless `headers` says
 * otherwise; undefined leaves one out), `params._meta` the envelope. Returns the status and the body as text (JSON
 * or an SSE stream).
 */
export async function postModern(
  url: string,
  method: string,
  params: Record<string, unknown> & { name?: string },
  options: { meta?: Record<string, unknown>; headers?: Record<string, string | undefined>; body?: string } = {},
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string | undefined> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(params.name !== undefined ? { 'mcp-name': params.name } : {}),
    ...options.headers,
  };
  const response = await fetch(url, {
    method: 'POST',
    // A header given as undefined is not sent (a 2025 request has none of the 2026-07-28 ones).
    headers: Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => !!entry[1])),
    body:
      options.body ??
      JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope(options.meta) } }),
  });
  return { status: response.status, text: await response.text() };
}

/** The JSON-RPC response of a body, JSON or the data line of an SSE stream that carries the id. */
export function responseOf(text: string): Record<string, unknown> {
  const json = text.trimStart().startsWith('{')
    ? text
    : text
        .split('\n')
        .find((line) => line.startsWith('data:') && line.includes('"id"'))!
        .slice(5);
  return JSON.parse(json) as Record<string, unknown>;
}
