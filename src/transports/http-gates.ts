import type { IncomingMessage, ServerResponse } from 'node:http';
import { envName } from '../config/index.js';
import type { Caller } from '../mcp/caller.js';
import { RPC_ERROR } from '../jsonrpc-errors.js';
import type { FailureBackoff } from './http-clients.js';
import { sendRpcError } from './http-reply.js';
import type { RequestNotes } from './http-request-log.js';
import {
  CORS_PREFLIGHT_HEADERS,
  corsHeaders,
  hostAllowed,
  originAllowed,
  type BearerCheck,
  type HostPolicy,
} from './http-security.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { ResourceServer } from './oauth/resource-server.js';

/** The path of the MCP endpoint: the last gate lets only it through. */
export const MCP_PATH = '/mcp';

/** One request on its way through the gates. */
export interface GateRequest {
  req: IncomingMessage;
  res: ServerResponse;
  notes: RequestNotes;
  path: string;
  /** The key of the per-client limits (http-clients.ts). */
  client: string | undefined;
  /** Whom a wrong static token slows down: the client, unless it is on loopback (see http.ts). */
  guesser: string | undefined;
  /** Set by the OAuth gate: the verified token's user. */
  caller?: Caller;
}

/** `answered`: the gate has answered the request itself (a refusal, a preflight, the metadata); `pass`: next gate. */
type Verdict = 'answered' | 'pass';

export interface Gate {
  readonly name: string;
  check(request: GateRequest): Verdict | Promise<Verdict>;
}

/** What the gates of one server need. Functions where the value changes while the server runs. */
export interface GateDeps {
  draining: () => boolean;
  /** Replaced once listening: with --port 0 only then is the port known. */
  policy: () => HostPolicy;
  checkBearer?: (headers: IncomingHttpHeaders) => BearerCheck;
  failures: FailureBackoff;
  oauth?: ResourceServer;
}

/**
 * The checks of every request but `/healthz`, in the order they run: shutting down first, then DNS rebinding (Host),
 * the public OAuth metadata, Origin, CORS (a preflight carries no credentials, so it is answered before any token),
 * the static token, the OAuth token, and the path. The first gate that answers ends the request.
 */
export function gates(deps: GateDeps): readonly Gate[] {
  const list: (Gate | undefined)[] = [
    drainGate(deps.draining),
    hostGate(deps.policy),
    deps.oauth && metadataGate(deps.oauth),
    originGate(deps.policy),
    corsGate(deps.policy),
    deps.checkBearer && bearerGate(deps.checkBearer, deps.failures),
    deps.oauth && oauthGate(deps.oauth),
    pathGate(),
  ];
  return list.filter((gate): gate is Gate => gate !== undefined);
}

/** Runs the gates in order; true when one of them answered. Synchronous gates are not awaited. */
export async function answeredByGates(list: readonly Gate[], request: GateRequest): Promise<boolean> {
  for (const gate of list) {
    const verdict = gate.check(request);
    if ((typeof verdict === 'string' ? verdict : await verdict) === 'answered') return true;
  }
  return false;
}

function drainGate(draining: () => boolean): Gate {
  return {
    name: 'drain',
    check({ res, notes }) {
      if (!draining()) return 'pass';
      notes.refused = 'shutting_down';
      res.setHeader('Connection', 'close');
      sendRpcError(res, 503, RPC_ERROR.ServerError, 'Server is shutting down');
      return 'answered';
    },
  };
}

function hostGate(policy: () => HostPolicy): Gate {
  return {
    name: 'host',
    check({ req, res, notes }) {
      if (hostAllowed(policy(), req.headers.host)) return 'pass';
      notes.refused = 'host';
      sendRpcError(
        res,
        403,
        RPC_ERROR.ServerError,
        `Forbidden: Host header not allowed (DNS rebinding protection; see ${envName('SVC_MCP_ALLOWED_HOSTS')})`,
      );
      return 'answered';
    },
  };
}

/** Public, for any origin: how a client finds the authorization server (RFC 9728). GET or HEAD, no token. */
function metadataGate(server: ResourceServer): Gate {
  return {
    name: 'oauth-metadata',
    check({ req, res, path }) {
      if (!server.metadataPaths.has(path)) return 'pass';
      const cors = { 'Access-Control-Allow-Origin': '*' };
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { ...cors, 'Access-Control-Allow-Methods': 'GET, HEAD', 'Access-Control-Max-Age': '86400' });
        res.end();
      } else if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: 'method not allowed' }));
      } else {
        const body = JSON.stringify(server.metadata);
        res.writeHead(200, { ...cors, 'Content-Type': 'application/json', 'Cache-Control': 'max-age=3600' });
        res.end(req.method === 'HEAD' ? undefined : body);
      }
      return 'answered';
    },
  };
}

function originGate(policy: () => HostPolicy): Gate {
  return {
    name: 'origin',
    check({ req, res, notes }) {
      if (originAllowed(policy(), req.headers.origin)) return 'pass';
      notes.refused = 'origin';
      sendRpcError(
        res,
        403,
        RPC_ERROR.ServerError,
        `Forbidden: Origin not allowed (see ${envName('SVC_MCP_ALLOWED_ORIGINS')})`,
      );
      return 'answered';
    },
  };
}

/** The CORS headers of an allowed origin on every answer; its preflight answered here, before the token check. */
function corsGate(policy: () => HostPolicy): Gate {
  return {
    name: 'cors',
    check({ req, res }) {
      const cors = corsHeaders(policy(), req.headers.origin);
      for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
      if (req.method !== 'OPTIONS' || Object.keys(cors).length === 0) return 'pass';
      res.writeHead(204, CORS_PREFLIGHT_HEADERS);
      res.end();
      return 'answered';
    },
  };
}

/** SVC_MCP_AUTH_TOKEN. A client that keeps guessing is refused without a look at its token. */
function bearerGate(checkBearer: (headers: IncomingHttpHeaders) => BearerCheck, failures: FailureBackoff): Gate {
  return {
    name: 'bearer',
    check({ req, res, notes, guesser }) {
      const waitMs = guesser === undefined ? 0 : failures.waitMs(guesser);
      if (waitMs > 0) {
        notes.refused = 'auth_backoff';
        const seconds = Math.ceil(waitMs / 1000);
        sendRpcError(
          res,
          429,
          RPC_ERROR.ServerError,
          `Too many failed token attempts from your address: retry in ${seconds} s`,
          { 'Retry-After': String(seconds) },
        );
        return 'answered';
      }
      const result = checkBearer(req.headers);
      if (result === 'ok') return 'pass';
      // A missing token is no guess (a client not yet configured); a wrong one is.
      if (result === 'invalid' && guesser !== undefined) failures.fail(guesser);
      notes.refused = 'auth';
      const challenge =
        result === 'missing'
          ? 'Bearer realm="svc-platform-mcp"'
          : 'Bearer realm="svc-platform-mcp", error="invalid_token"';
      sendRpcError(
        res,
        401,
        RPC_ERROR.Unauthorized,
        `Unauthorized: send Authorization: Bearer <${envName('SVC_MCP_AUTH_TOKEN')}>`,
        {
          'WWW-Authenticate': challenge,
        },
      );
      return 'answered';
    },
  };
}

/** OAuth mode: the access token verified, and its user noted as the request's caller. */
function oauthGate(server: ResourceServer): Gate {
  return {
    name: 'oauth',
    async check(request) {
      const result = await server.authenticate(request.req.url, request.req.headers);
      if (result.ok) {
        request.caller = result.caller;
        return 'pass';
      }
      request.notes.refused = result.reason;
      sendRpcError(
        request.res,
        result.status,
        result.status === 503 ? RPC_ERROR.ServerError : RPC_ERROR.Unauthorized,
        result.message,
        result.headers,
      );
      return 'answered';
    },
  };
}

function pathGate(): Gate {
  return {
    name: 'path',
    check({ res, notes, path }) {
      if (path === MCP_PATH) return 'pass';
      notes.refused = 'path';
      sendRpcError(res, 404, RPC_ERROR.ServerError, `Not found: MCP is served at ${MCP_PATH}`);
      return 'answered';
    },
  };
}
