import type { IncomingMessage, ServerResponse } from 'node:http';
import { envName } from '../config/index.js';
import { RPC_ERROR } from '../jsonrpc-errors.js';
import { unreadBytes, type EndpointContext, type McpSession } from './http-endpoint-context.js';
import { openQuietStream, servesQuietly } from './http-more-streams.js';
import { rpcIdOf, sendRpcError, sessionIdOf } from './http-reply.js';
import type { RequestNotes } from './http-request-log.js';

/**
 * The session a request names, once it may use it (it exists, it is the caller's, it reads its answers); undefined
 * when the request was refused (answered here). What is POSTed is in `body`; `hasRequest`: it asks for new work.
 */
function sessionFor(
  ctx: EndpointContext,
  req: IncomingMessage,
  res: ServerResponse,
  notes: RequestNotes,
  client: string | undefined,
  body?: unknown,
  hasRequest = false,
): { id: string; session: McpSession } | undefined {
  const id = sessionIdOf(req);
  if (id === undefined) {
    notes.refused = 'no_session';
    sendRpcError(res, 400, RPC_ERROR.ServerError, 'Bad Request: Mcp-Session-Id header is required', {}, rpcIdOf(body));
    return undefined;
  }
  const session = ctx.sessions.get(id);
  // OAuth mode: a session is its user's; another user's token does not open it (nor learns that it exists: the same
  // 404 as an unknown session, told apart only in the request log).
  const refused = !session
    ? 'unknown_session'
    : ctx.options.oauth && ctx.sessions.clientOf(id) !== client
      ? 'session_owner'
      : undefined;
  if (!session || refused) {
    notes.refused = refused;
    sendRpcError(
      res,
      404,
      RPC_ERROR.SessionNotFound,
      'Session not found (unknown, ended or expired): initialize a new session',
      {},
      rpcIdOf(body),
    );
    return undefined;
  }
  // Back-pressure: no new work for a client that does not read what it already has (its notifications and
  // responses still pass: a cancellation can only help). The process-wide cap of calls is in Calls.
  const unread = hasRequest ? unreadBytes(session.responses) : 0;
  if (unread > ctx.options.maxUnreadBytes) {
    notes.refused = 'backpressure';
    sendRpcError(
      res,
      503,
      RPC_ERROR.ServerError,
      `Service Unavailable: this session's earlier responses hold ${unread} unread bytes, over ${ctx.options.maxUnreadBytes} ` +
        `(${envName('SVC_MCP_MAX_UNREAD_BYTES')}): read them before sending more requests`,
      { 'Retry-After': '1' },
      rpcIdOf(body),
    );
    return undefined;
  }
  // A stream keeps its session from being closed to make room (not from idle expiry); a request also from that.
  res.once('close', notes.longLived ? ctx.sessions.openStream(id) : ctx.sessions.begin(id));
  return { id, session };
}

/** DELETE: ends the session. */
export async function deleteSession(
  ctx: EndpointContext,
  req: IncomingMessage,
  res: ServerResponse,
  notes: RequestNotes,
  client: string | undefined,
): Promise<void> {
  const found = sessionFor(ctx, req, res, notes, client);
  if (!found) return;
  try {
    await found.session.transport.handleRequest(req, res);
  } finally {
    ctx.sessions.remove(found.id);
    void found.session.close().catch(() => {});
  }
}

/** GET: a stream of the session's messages. The spec allows several streams; the SDK's transport holds one. */
export async function openStream(
  ctx: EndpointContext,
  req: IncomingMessage,
  res: ServerResponse,
  notes: RequestNotes,
  client: string | undefined,
): Promise<void> {
  const found = sessionFor(ctx, req, res, notes, client);
  if (!found) return;
  const { id, session } = found;
  if (session.standalone && servesQuietly(req)) return openQuietStream(res, id, session.quiet);
  if (!session.standalone) {
    session.standalone = res;
    res.once('close', () => {
      if (session.standalone === res) session.standalone = undefined;
    });
  }
  return serve(session, req, res);
}

/** POST on a session, with its parsed body. */
export async function postToSession(
  ctx: EndpointContext,
  req: IncomingMessage,
  res: ServerResponse,
  notes: RequestNotes,
  client: string | undefined,
  body: unknown,
  hasRequest: boolean,
): Promise<void> {
  const found = sessionFor(ctx, req, res, notes, client, body, hasRequest);
  if (!found) return;
  return serve(found.session, req, res, body);
}

/** The session's transport answers; the response counts as open until it closes. */
async function serve(session: McpSession, req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
  session.responses.add(res);
  res.once('close', () => {
    session.responses.delete(res);
    // A client that went away before its answer cancels its requests, as a stateless or 2026-07-28 one does.
    if (!res.writableFinished) cancelRequests(session, body, 'the client closed the connection before the answer');
  });
  await session.transport.handleRequest(req, res, body);
}

/** Tells a session's server that the requests of a POST body are cancelled (their calls stop; nothing more is sent). */
function cancelRequests(session: McpSession, body: unknown, reason: string): void {
  for (const message of Array.isArray(body) ? body : [body]) {
    const m = message as { id?: string | number; method?: unknown };
    if (typeof m?.method !== 'string' || m.id === undefined) continue;
    session.wire.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: m.id, reason },
    });
  }
}
