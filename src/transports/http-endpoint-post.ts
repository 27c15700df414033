import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { envName } from '../config/index.js';
import type { Caller } from '../mcp/caller.js';
import { missingScopes } from '../mcp/scopes.js';
import type { Narrowing } from '../mcp/tool-policy.js';
import { OutgoingWire, toLegacyWire } from '../outgoing-wire.js';
import { RPC_ERROR } from '../jsonrpc-errors.js';
import { isJsonContentType, readJsonBody } from './http-body.js';
import type { EndpointContext, McpSession } from './http-endpoint-context.js';
import { postToSession } from './http-endpoint-session.js';
import { endQuietStreams } from './http-more-streams.js';
import { narrowingFrom } from './http-narrowing.js';
import { isModernRequest } from './http-per-request.js';
import { rpcIdOf, sendRpcError, sessionIdOf } from './http-reply.js';
import { summariseRpc, type RequestNotes } from './http-request-log.js';
import { invalidBody } from './jsonrpc-check.js';

/**
 * POST: the body read and checked (type, size, time, JSON, JSON-RPC, scopes), then served: on its session, per
 * request (2026-07-28), by a server of its own (stateless 2025), or as the initialize of a new session.
 */
export async function post(
  ctx: EndpointContext,
  req: IncomingMessage,
  res: ServerResponse,
  notes: RequestNotes,
  client: string | undefined,
  caller: Caller | undefined,
): Promise<void> {
  if (!isJsonContentType(req.headers['content-type'])) {
    notes.refused = 'content_type';
    return sendRpcError(
      res,
      415,
      RPC_ERROR.ServerError,
      'Unsupported Media Type: Content-Type must be application/json',
    );
  }
  const body = await readJsonBody(req, ctx.options.maxBodyBytes, ctx.options.requestTimeoutMs);
  if (body.kind === 'aborted') return void res.destroy();
  if (body.kind === 'timeout') {
    notes.refused = 'timeout';
    res.setHeader('Connection', 'close');
    sendRpcError(
      res,
      408,
      RPC_ERROR.ServerError,
      `Request Timeout: the body did not arrive within ${ctx.options.requestTimeoutMs} ms (${envName('SVC_MCP_REQUEST_TIMEOUT_MS')})`,
    );
    // The rest of the body is not waited for: the connection ends once the answer is out.
    res.once('finish', () => req.socket.destroySoon());
    return;
  }
  if (body.kind === 'too-large') {
    notes.refused = 'too_large';
    res.setHeader('Connection', 'close');
    return sendRpcError(
      res,
      413,
      RPC_ERROR.ServerError,
      `Payload Too Large: request body over ${ctx.options.maxBodyBytes} bytes (${envName('SVC_MCP_MAX_BODY_BYTES')})`,
    );
  }
  if (body.kind === 'invalid-json') {
    notes.refused = 'parse_error';
    return sendRpcError(res, 400, RPC_ERROR.ParseError, 'Parse error: invalid JSON');
  }
  const invalid = invalidBody(body.value, single(req.headers['mcp-protocol-version']));
  if (invalid) {
    notes.refused = 'invalid_request';
    return sendRpcError(res, 400, invalid.code, invalid.message, {}, rpcIdOf(body.value));
  }
  const summary = summariseRpc(body.value);
  if (summary.rpc) notes.rpc = summary.rpc;
  if (summary.tool) notes.tool = summary.tool;
  // Beyond the token's scopes: refused here, before any server sees it, in every era and mode.
  const missing = caller && ctx.scopeRefusal ? missingScopes(body.value, caller.scopes) : [];
  if (missing.length > 0) {
    notes.refused = 'scope';
    const refusal = ctx.scopeRefusal!(missing);
    return sendRpcError(res, 403, RPC_ERROR.Unauthorized, refusal.message, refusal.headers, rpcIdOf(body.value));
  }

  if (sessionIdOf(req) !== undefined && !ctx.options.stateless)
    return postToSession(ctx, req, res, notes, client, body.value, summary.hasRequest);
  // A client narrows its tools on each request (stateless) or when its session starts.
  const narrowed = narrowingFrom(req.headersDistinct);
  if (!narrowed.ok) {
    notes.refused = 'narrowing';
    return sendRpcError(res, 400, RPC_ERROR.InvalidParams, `Bad Request: ${narrowed.message}`, {}, rpcIdOf(body.value));
  }
  const modern = await isModernRequest(req, body.value);
  notes.era = modern ? '2026' : '2025';
  if (modern) return ctx.perRequest(req, res, body.value, { narrowing: narrowed.narrowing, key: client, caller });
  if (ctx.options.stateless) return statelessPost(ctx, req, res, body.value, narrowed.narrowing, client);
  if (!summary.initialize) {
    notes.refused = 'no_session';
    return sendRpcError(
      res,
      400,
      RPC_ERROR.ServerError,
      'Bad Request: Mcp-Session-Id header is required (initialize first)',
      {},
      rpcIdOf(body.value),
    );
  }
  return initialize(ctx, req, res, notes, body.value, narrowed.narrowing, client);
}

/** Stateless 2025: a fresh server and transport per request, closed when the response is done. */
async function statelessPost(
  ctx: EndpointContext,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  narrowing?: Narrowing,
  client?: string,
): Promise<void> {
  const server = ctx.create({ narrowing, stateless: true, client });
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.once('close', () => void server.close().catch(() => {}));
  await server.connect(new OutgoingWire(transport, toLegacyWire));
  await transport.handleRequest(req, res, body);
}

/** The initialize of a 2025 session: a place reserved for it (per client, per server), then its server. */
async function initialize(
  ctx: EndpointContext,
  req: IncomingMessage,
  res: ServerResponse,
  notes: RequestNotes,
  body: unknown,
  narrowing: Narrowing | undefined,
  client: string | undefined,
): Promise<void> {
  const place = ctx.sessions.reserve(client);
  if (place === 'client_full' && client !== undefined) {
    notes.refused = 'client_session_limit';
    return sendRpcError(
      res,
      429,
      RPC_ERROR.ServerError,
      `Too many sessions ${ctx.options.oauth ? 'of your user' : 'from your address'}: at most ${ctx.options.maxSessionsPerClient} at once (${envName('SVC_MCP_MAX_SESSIONS_PER_CLIENT')}), ` +
        'and each has a request in flight or an open stream. End unused sessions (DELETE /mcp), or retry when one is idle.',
      { 'Retry-After': String(Math.ceil(ctx.sessions.retryAfterMs(client) / 1000)) },
      rpcIdOf(body),
    );
  }
  if (place !== 'ok') {
    notes.refused = 'session_limit';
    return sendRpcError(
      res,
      503,
      RPC_ERROR.ServerError,
      `Too many sessions: this server holds at most ${ctx.options.maxSessions} concurrent sessions (${envName('SVC_MCP_MAX_SESSIONS')}), ` +
        'and every one it could close has a request in flight or an open stream. End unused sessions (DELETE /mcp) or retry later.',
      { 'Retry-After': '5' },
      rpcIdOf(body),
    );
  }
  let reserved = true;
  const unreserve = () => {
    if (!reserved) return;
    reserved = false;
    ctx.sessions.unreserve(client);
  };
  let session: McpSession | undefined;
  try {
    session = newSession(ctx, narrowing, client, (id, opened) => {
      unreserve();
      ctx.sessions.add(id, opened, client);
      // Until its answer is out, a new session is in use: not one to close to make room.
      res.once('close', ctx.sessions.begin(id));
    });
    await session.server.connect(session.wire);
    await session.transport.handleRequest(req, res, body);
  } finally {
    unreserve();
    // The initialize was refused (e.g. a bad Accept header) or failed: nothing holds the server.
    const id = session?.transport.sessionId;
    if (session && (id === undefined || !ctx.sessions.get(id))) void session.close().catch(() => {});
  }
}

function newSession(
  ctx: EndpointContext,
  narrowing: Narrowing | undefined,
  client: string | undefined,
  onInitialized: (id: string, session: McpSession) => void,
): McpSession {
  // The session's calls take turns for places as its client (its address, or its user): one address's sessions
  // share that address's places.
  const server = ctx.create({ narrowing, client });
  const transport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: ctx.newSessionId,
    onsessioninitialized: (id) => onInitialized(id, session),
    onsessionclosed: (id) => ctx.sessions.remove(id),
  });
  const wire = new OutgoingWire(transport, toLegacyWire);
  const quiet = new Set<ServerResponse>();
  const session: McpSession = {
    server,
    transport,
    wire,
    responses: new Set(),
    quiet,
    close: () => {
      endQuietStreams(quiet);
      return server.close();
    },
  };
  // Set before connect, which chains its own handler after this one.
  wire.onclose = () => {
    endQuietStreams(quiet);
    if (transport.sessionId) ctx.sessions.remove(transport.sessionId);
  };
  return session;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
