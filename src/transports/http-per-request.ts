import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, type AuthInfo, type McpRequestContext } from '@modelcontextprotocol/server';
import { authInfoOf, type Caller } from '../mcp/caller.js';
import type { Narrowing } from '../mcp/tool-policy.js';
import type { ServerFactory } from '../server.js';

/** Who sends a request: its narrowing of the tools, and its key for taking turns (its address, or its user). */
interface PerRequestClient {
  narrowing?: Narrowing;
  key?: string;
  /** OAuth mode: who the token says calls. */
  caller?: Caller;
}

/** Serves one POST whose body our endpoint already read and checked, for its client. */
export interface PerRequestHandler {
  (req: IncomingMessage, res: ServerResponse, body: unknown, client: PerRequestClient): Promise<void>;
  close(): Promise<void>;
}

/**
 * The SDK's per-request serving (createMcpHandler): a fresh server for each 2026-07-28 request (no sessions: the
 * version and the client's capabilities travel in each request). 2025 requests are the endpoint's (sessions, or per
 * request with --stateless), so that they answer in the 2025 spelling (toLegacyWire, outgoing-wire.ts). The SDK
 * checks the 2026-07-28 headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name against the body) and answers an
 * unsupported version with -32022.
 */
export function perRequestHandler(
  create: ServerFactory,
  options: { legacy: 'reject'; maxBodyBytes: number; log(entry: object): void },
): PerRequestHandler {
  const handler = createMcpHandler((ctx: McpRequestContext) => create(clientOf(ctx.authInfo)), {
    legacy: options.legacy,
    maxRequestBodySize: options.maxBodyBytes,
    onerror: (error) => options.log(errorEntry(error)),
  });
  const node = toNodeHandler(handler, {
    maxRequestBodySize: options.maxBodyBytes,
    onerror: (error) => options.log(errorEntry(error)),
  });
  const serve = (req: IncomingMessage, res: ServerResponse, body: unknown, client: PerRequestClient) => {
    // Who asks travels as the request's pass-through auth info: the SDK hands it to the factory untouched.
    (req as IncomingMessage & { auth?: AuthInfo }).auth = client.caller
      ? authInfoOf(client.caller, { client })
      : { token: '', clientId: 'http', scopes: [], extra: { client } };
    return node(req, res, body);
  };
  return Object.assign(serve, { close: () => handler.close() });
}

/**
 * The SDK's error as a log entry: its kind, without what the client chose. Its messages quote the request's headers
 * and body values (Mcp-Name, Mcp-Method, MCP-Protocol-Version, params), which a log must not carry: only the words
 * before the first quoted or reported value are kept.
 */
function errorEntry(error: Error): { event: 'http_mcp_error'; message: string } {
  const words = error.message
    .split(/[:"'=]/, 1)[0]!
    .trim()
    .slice(0, 100);
  return { event: 'http_mcp_error', message: `${words || error.name} (details withheld: they quote the request)` };
}

function clientOf(auth: AuthInfo | undefined): { narrowing?: Narrowing; client?: string } {
  const client = auth?.extra?.client as PerRequestClient | undefined;
  return { narrowing: client?.narrowing, client: client?.key };
}

/**
 * Whether a POST belongs to the 2026-07-28 era: it carries the version claim (or a modern MCP-Protocol-Version
 * header, which the modern path answers if the claim is missing). The SDK's own predicate, so that routing agrees
 * with what its handler serves.
 */
export async function isModernRequest(req: IncomingMessage, body: unknown): Promise<boolean> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return !(await isLegacyRequest(new Request('http://localhost/mcp', { method: 'POST', headers }), body));
}
