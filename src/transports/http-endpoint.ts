import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { Server } from '@modelcontextprotocol/server';
import type { HttpOptions } from '../config/index.js';
import { envName } from '../config/env-variables.js';
import type { ServerFactory } from '../server.js';
import { isJsonContentType, readJsonBody } from './http-body.js';
import { invalidBody } from './jsonrpc-check.js';
import { narrowingFrom } from './http-narrowing.js';
import { rpcIdOf, sendRpcError, sessionIdOf } from './http-reply.js';
import { summariseRpc, type RequestNotes } from './http-request-log.js';
import { endQuietStreams, openQuietStream, servesQuietly } from './http-more-streams.js';
import type { SessionStore } from './http-sessions.js';
import type { Narrowing } from '../mcp/tool-policy.js';
import { isModernRequest, perRequestHandler } from './http-per-request.js';
import { OutgoingWire, toLegacyWire } from '../outgoing-wire.js';
import { authInfoOf, type Caller } from '../mcp/caller.js';
import { missingScopes } from '../mcp/scopes.js';
import { RPC_ERROR } from '../jsonrpc-errors.js';

/**
 * The MCP endpoint (`/mcp`) once a request has passed the security checks: reads and parses the body
 * (size limit, parse errors), then hands it to the SDK's Streamable HTTP transport, either of a session
 * (session mode) or of a server built for this request alone (stateless mode).
 */
export interface McpSession {
  server: Server;
  transport: NodeStreamableHTTPServerTransport;
  /** What the server is connected to: the transport, answering in the 2025 spelling. */
  wire: OutgoingWire<NodeStreamableHTTPServerTransport>;
  /** Its response streams still open (POST responses, the GET streams), for back-pressure. */
  responses: Set<ServerResponse>;
  /** The GET stream the SDK's transport serves (it takes one per session), while open. */
  standalone?: ServerResponse;
  /** Further GET streams, served here (see http-more-streams.ts). */
  quiet: Set<ServerResponse>;
  close(): Promise<void>;
}

/**
 * What a session's open responses hold in the process, unread: bytes the network has not taken yet. (The SDK
 * writes with back-pressure, so a stream that is not read keeps its current message here and the next ones in
 * its own queue: this is a lower bound of what waits.)
 */
export function unreadBytes(responses: Iterable<Pick<ServerResponse, 'writableLength'>>): number {
  let total = 0;
  for (const res of responses) total += res.writableLength;
  return total;
}

/**
 * `client` is the key of the per-client limits (see http-clients.ts): its address. In OAuth mode it is
 * the caller's (its subject), and `caller` says who the token names.
 */
export type EndpointHandler = ((
  req: IncomingMessage,
  res: ServerResponse,
  notes: RequestNotes,
  client?: string,
  caller?: Caller,
) => Promise<void>) & {
  /** Ends the per-request serving (its open streams); sessions are closed by their store. */
  close(): Promise<void>;
};

/**
 * Session ids are random UUIDs, prefixed with `<SVC_MCP_REPLICA_ID>.` when that is set: a reverse proxy routes
 * a request to the replica that holds its session by that prefix alone (see deploy/nginx). Both parts are
 * visible ASCII, as the spec requires of a session id.
 */
export function sessionIdGenerator(replicaId: string | undefined): () => string {
  return replicaId ? () => `${replicaId}.${randomUUID()}` : randomUUID;
}

/** The 403 of a request that needs scopes its token lacks (OAuth mode: its step-up challenge). */
export type ScopeRefusal = (scopes: readonly string[]) => { message: string; headers: Record<string, string> };

export function mcpEndpoint(
  create: ServerFactory,
  options: HttpOptions,
  sessions: SessionStore<McpSession>,
  log: (line: string) => void,
  scopeRefusal?: ScopeRefusal,
): EndpointHandler {
  const newSessionId = sessionIdGenerator(options.replicaId);
  // 2026-07-28 requests, served per request in both modes.
  const perRequest = perRequestHandler(create, {
    legacy: 'reject',
    maxBodyBytes: options.maxBodyBytes,
    log: (entry) => log(JSON.stringify(entry)),
  });
  const endpoint = async (
    req: IncomingMessage,
    res: ServerResponse,
    notes: RequestNotes,
    client?: string,
    caller?: Caller,
  ) => {
    // The SDK hands it to every handler (ctx.http.authInfo): the tools the token allows, and who calls, for the log.
    if (caller) (req as IncomingMessage & { auth?: unknown }).auth = authInfoOf(caller);
    switch (req.method) {
      case 'POST':
        return post(req, res, notes, client, caller);
      case 'GET':
        notes.longLived = true;
        return options.stateless ? methodNotAllowed(res, notes) : sessionRequest(req, res, notes, client);
      case 'DELETE':
        return options.stateless ? methodNotAllowed(res, notes) : sessionRequest(req, res, notes, client);
      default:
        return methodNotAllowed(res, notes);
    }
  };
  return Object.assign(endpoint, { close: () => perRequest.close() });

  function methodNotAllowed(res: ServerResponse, notes: RequestNotes): void {
    notes.refused = 'method';
    const allow = options.stateless ? 'POST' : 'GET, POST, DELETE';
    const why = options.stateless ? ' (stateless mode: no standalone stream, no sessions)' : '';
    sendRpcError(res, 405, RPC_ERROR.ServerError, `Method not allowed${why}`, { Allow: allow });
  }

  async function post(
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
    const body = await readJsonBody(req, options.maxBodyBytes, options.requestTimeoutMs);
    if (body.kind === 'aborted') return void res.destroy();
    if (body.kind === 'timeout') {
      notes.refused = 'timeout';
      res.setHeader('Connection', 'close');
      sendRpcError(
        res,
        408,
        RPC_ERROR.ServerError,
        `Request Timeout: the body did not arrive within ${options.requestTimeoutMs} ms (${envName('SVC_MCP_REQUEST_TIMEOUT_MS')})`,
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
        `Payload Too Large: request body over ${options.maxBodyBytes} bytes (${envName('SVC_MCP_MAX_BODY_BYTES')})`,
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
    const missing = caller && scopeRefusal ? missingScopes(body.value, caller.scopes) : [];
    if (missing.length > 0) {
      notes.refused = 'scope';
      const refusal = scopeRefusal!(missing);
      return sendRpcError(res, 403, RPC_ERROR.Unauthorized, refusal.message, refusal.headers, rpcIdOf(body.value));
    }

    if (sessionIdOf(req) !== undefined && !options.stateless)
      return sessionRequest(req, res, notes, client, body.value, summary.hasRequest);
    // A client narrows its tools on each request (stateless) or when its session starts.
    const narrowed = narrowingFrom(req.headersDistinct);
    if (!narrowed.ok) {
      notes.refused = 'narrowing';
      return sendRpcError(
        res,
        400,
        RPC_ERROR.InvalidParams,
        `Bad Request: ${narrowed.message}`,
        {},
        rpcIdOf(body.value),
      );
    }
    const modern = await isModernRequest(req, body.value);
    notes.era = modern ? '2026' : '2025';
    if (modern) return perRequest(req, res, body.value, { narrowing: narrowed.narrowing, key: client, caller });
    if (options.stateless) return statelessPost(req, res, body.value, narrowed.narrowing, client);
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
    return initialize(req, res, notes, body.value, narrowed.narrowing, client);
  }

  /** Stateless 2025: a fresh server and transport per request, closed when the response is done. */
  async function statelessPost(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    narrowing?: Narrowing,
    client?: string,
  ): Promise<void> {
    const server = create({ narrowing, stateless: true, client });
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.once('close', () => void server.close().catch(() => {}));
    await server.connect(new OutgoingWire(transport, toLegacyWire));
    await transport.handleRequest(req, res, body);
  }

  async function initialize(
    req: IncomingMessage,
    res: ServerResponse,
    notes: RequestNotes,
    body: unknown,
    narrowing: Narrowing | undefined,
    client: string | undefined,
  ): Promise<void> {
    const place = sessions.reserve(client);
    if (place === 'client_full' && client !== undefined) {
      notes.refused = 'client_session_limit';
      return sendRpcError(
        res,
        429,
        RPC_ERROR.ServerError,
        `Too many sessions ${options.oauth ? 'of your user' : 'from your address'}: at most ${options.maxSessionsPerClient} at once (${envName('SVC_MCP_MAX_SESSIONS_PER_CLIENT')}), ` +
          'and each has a request in flight or an open stream. End unused sessions (DELETE /mcp), or retry when one is idle.',
        { 'Retry-After': String(Math.ceil(sessions.retryAfterMs(client) / 1000)) },
        rpcIdOf(body),
      );
    }
    if (place !== 'ok') {
      notes.refused = 'session_limit';
      return sendRpcError(
        res,
        503,
        RPC_ERROR.ServerError,
        `Too many sessions: this server holds at most ${options.maxSessions} concurrent sessions (${envName('SVC_MCP_MAX_SESSIONS')}), ` +
          'and every one it could close has a request in flight or an open stream. End unused sessions (DELETE /mcp) or retry later.',
        { 'Retry-After': '5' },
        rpcIdOf(body),
      );
    }
    let reserved = true;
    const unreserve = () => {
      if (!reserved) return;
      reserved = false;
      sessions.unreserve(client);
    };
    let session: McpSession | undefined;
    try {
      session = newSession(narrowing, client, (id, opened) => {
        unreserve();
        sessions.add(id, opened, client);
        // Until its answer is out, a new session is in use: not one to close to make room.
        res.once('close', sessions.begin(id));
      });
      await session.server.connect(session.wire);
      await session.transport.handleRequest(req, res, body);
    } finally {
      unreserve();
      // The initialize was refused (e.g. a bad Accept header) or failed: nothing holds the server.
      const id = session?.transport.sessionId;
      if (session && (id === undefined || !sessions.get(id))) void session.close().catch(() => {});
    }
  }

  function newSession(
    narrowing: Narrowing | undefined,
    client: string | undefined,
    onInitialized: (id: string, session: McpSession) => void,
  ): McpSession {
    // The session's calls take turns for places as its client (its address, or its user): one address's sessions
    // share that address's places.
    const server = create({ narrowing, client });
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: newSessionId,
      onsessioninitialized: (id) => onInitialized(id, session),
      onsessionclosed: (id) => sessions.remove(id),
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
      if (transport.sessionId) sessions.remove(transport.sessionId);
    };
    return session;
  }

  /** A request on an existing session: POST (with its parsed body), GET (stream) or DELETE (end it). */
  async function sessionRequest(
    req: IncomingMessage,
    res: ServerResponse,
    notes: RequestNotes,
    client: string | undefined,
    body?: unknown,
    hasRequest = false,
  ): Promise<void> {
    const id = sessionIdOf(req);
    if (id === undefined) {
      notes.refused = 'no_session';
      return sendRpcError(
        res,
        400,
        RPC_ERROR.ServerError,
        'Bad Request: Mcp-Session-Id header is required',
        {},
        rpcIdOf(body),
      );
    }
    const session = sessions.get(id);
    // OAuth mode: a session is its user's; another user's token does not open it (nor learns that it exists).
    if (session && options.oauth && sessions.clientOf(id) !== client) {
      notes.refused = 'session_owner';
      return sendRpcError(
        res,
        404,
        RPC_ERROR.SessionNotFound,
        'Session not found (unknown, ended or expired): initialize a new session',
        {},
        rpcIdOf(body),
      );
    }
    if (!session) {
      notes.refused = 'unknown_session';
      return sendRpcError(
        res,
        404,
        RPC_ERROR.SessionNotFound,
        'Session not found (unknown, ended or expired): initialize a new session',
        {},
        rpcIdOf(body),
      );
    }
    // Back-pressure: no new work for a client that does not read what it already has (its notifications and
    // responses still pass: a cancellation can only help). The process-wide cap of calls is in Calls.
    const unread = hasRequest ? unreadBytes(session.responses) : 0;
    if (unread > options.maxUnreadBytes) {
      notes.refused = 'backpressure';
      return sendRpcError(
        res,
        503,
        RPC_ERROR.ServerError,
        `Service Unavailable: this session's earlier responses hold ${unread} unread bytes, over ${options.maxUnreadBytes} ` +
          `(${envName('SVC_MCP_MAX_UNREAD_BYTES')}): read them before sending more requests`,
        { 'Retry-After': '1' },
        rpcIdOf(body),
      );
    }
    // A stream keeps its session from being closed to make room (not from idle expiry); a request also from that.
    res.once('close', notes.longLived ? sessions.openStream(id) : sessions.begin(id));
    if (req.method === 'DELETE') {
      try {
        await session.transport.handleRequest(req, res);
      } finally {
        sessions.remove(id);
        void session.close().catch(() => {});
      }
      return;
    }
    if (req.method === 'GET') {
      // The spec allows several streams; the SDK's transport holds one per session.
      if (session.standalone && servesQuietly(req)) return openQuietStream(res, id, session.quiet);
      if (!session.standalone) {
        session.standalone = res;
        res.once('close', () => {
          if (session.standalone === res) session.standalone = undefined;
        });
      }
    }
    session.responses.add(res);
    res.once('close', () => {
      session.responses.delete(res);
      // A client that went away before its answer cancels its requests, as a stateless or 2026-07-28 one does.
      if (!res.writableFinished) cancelRequests(session, body, 'the client closed the connection before the answer');
    });
    await session.transport.handleRequest(req, res, body);
  }
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

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
