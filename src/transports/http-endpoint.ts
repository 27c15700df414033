import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpOptions } from '../config/index.js';
import type { ServerFactory } from '../server.js';
import { authInfoOf, type Caller } from '../mcp/caller.js';
import { RPC_ERROR } from '../jsonrpc-errors.js';
import {
  sessionIdGenerator,
  type EndpointContext,
  type McpSession,
  type ScopeRefusal,
} from './http-endpoint-context.js';
import { post } from './http-endpoint-post.js';
import { deleteSession, openStream } from './http-endpoint-session.js';
import { perRequestHandler } from './http-per-request.js';
import { sendRpcError } from './http-reply.js';
import type { RequestNotes } from './http-request-log.js';
import type { SessionStore } from './http-sessions.js';

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
 * The MCP endpoint (`/mcp`) once a request has passed the gates (http-gates.ts), by method: POST reads and checks
 * the body, then hands it to the SDK's Streamable HTTP transport of a session, of a server built for this request
 * alone, or to the per-request handler (http-endpoint-post.ts); GET opens a stream of a session, DELETE ends one
 * (http-endpoint-session.ts). Stateless mode has POST alone.
 */
export function mcpEndpoint(
  create: ServerFactory,
  options: HttpOptions,
  sessions: SessionStore<McpSession>,
  log: (line: string) => void,
  scopeRefusal?: ScopeRefusal,
): EndpointHandler {
  const ctx: EndpointContext = {
    create,
    options,
    sessions,
    ...(scopeRefusal ? { scopeRefusal } : {}),
    newSessionId: sessionIdGenerator(options.replicaId),
    perRequest: perRequestHandler(create, {
      legacy: 'reject',
      maxBodyBytes: options.maxBodyBytes,
      log: (entry) => log(JSON.stringify(entry)),
    }),
  };
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
        return post(ctx, req, res, notes, client, caller);
      case 'GET':
        notes.longLived = true;
        return options.stateless ? methodNotAllowed(options, res, notes) : openStream(ctx, req, res, notes, client);
      case 'DELETE':
        return options.stateless ? methodNotAllowed(options, res, notes) : deleteSession(ctx, req, res, notes, client);
      default:
        return methodNotAllowed(options, res, notes);
    }
  };
  return Object.assign(endpoint, { close: () => ctx.perRequest.close() });
}

function methodNotAllowed(options: HttpOptions, res: ServerResponse, notes: RequestNotes): void {
  notes.refused = 'method';
  const allow = options.stateless ? 'POST' : 'GET, POST, DELETE';
  const why = options.stateless ? ' (stateless mode: no standalone stream, no sessions)' : '';
  sendRpcError(res, 405, RPC_ERROR.ServerError, `Method not allowed${why}`, { Allow: allow });
}
