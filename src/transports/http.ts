import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import { envName, type Config } from '../config/index.js';
import type { ServerFactory } from '../server.js';
import {
  AUTH_BACKOFF,
  FailureBackoff,
  clientAddress,
  clientKey,
  forwardedByUnlisted,
  peerKey,
  trustedProxies,
} from './http-clients.js';
import { ConnectionShares } from './http-connections.js';
import { oauthResourceServer } from './oauth/setup.js';
import type { ResourceServer } from './oauth/resource-server.js';
import { mcpEndpoint } from './http-endpoint.js';
import type { McpSession } from './http-endpoint-context.js';
import { pathOf, sendRpcError } from './http-reply.js';
import { formatRequestLog, type RequestLogEntry, type RequestNotes } from './http-request-log.js';
import { bearerChecker, hostPolicy, type HostPolicy } from './http-security.js';
import { MCP_PATH, answeredByGates, gates, type GateRequest } from './http-gates.js';
import { SessionStore } from './http-sessions.js';
import { finishInFlight } from './shutdown.js';
import { RPC_ERROR } from '../jsonrpc-errors.js';
import { isLoopback } from '../util/loopback.js';

export interface HttpRuntime {
  log(line: string): void;
  /** Registers the handler of SIGINT/SIGTERM (the CLI owns the process). */
  onSignal(handler: (signal: string) => void): void;
  /** Clock for idle expiry and durations; Date.now by default. */
  now?(): number;
  /** How long in-flight requests may take to finish at shutdown; 10 s by default. */
  graceMs?: number;
  /** The process's HTTP client (its proxy settings), for the authorization server's metadata and keys (OAuth mode). */
  dispatcher?: () => Promise<Dispatcher>;
}

export interface HttpServerHandle {
  /** The MCP endpoint, with the port actually bound (useful with --port 0). */
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (bounded), closes sessions. Idempotent. */
  close(): Promise<void>;
  /** Settles when the server has stopped, whoever stopped it. */
  closed: Promise<void>;
}

const HEALTH_PATH = '/healthz';
/** Headers come in one packet or two: time enough on any network (or SVC_MCP_REQUEST_TIMEOUT_MS, if shorter). */
const HEADERS_TIMEOUT_MS = 10_000;
/** After the grace period, how long the stopped calls have to write their answers before the connections close. */
const STOPPED_CALLS_MS = 1000;

/**
 * Serves MCP over Streamable HTTP until SIGINT/SIGTERM, then shuts down gracefully and resolves, so that
 * the CLI can release the sandbox and the connection pool and exit 0.
 */
export async function serveHttp(create: ServerFactory, config: Config, runtime: HttpRuntime): Promise<void> {
  const handle = await startHttpServer(create, config, runtime);
  const mode = config.http.stateless ? 'stateless' : 'sessions';
  const auth = config.http.oauth
    ? `OAuth: tokens of ${config.http.oauth.issuer} for ${config.http.oauth.publicUrl}`
    : config.http.authToken
      ? 'bearer token required'
      : 'no token';
  const replica = config.http.replicaId ? `replica ${config.http.replicaId}; ` : '';
  runtime.log(`svc-platform-mcp: listening on ${handle.url} (${mode}; ${replica}${auth})`);
  runtime.onSignal((signal) => {
    runtime.log(`svc-platform-mcp: ${signal} received: finishing in-flight requests, then exiting`);
    void handle.close();
  });
  await handle.closed;
}

/**
 * Starts the HTTP server: `/healthz`, then for everything else the gates in their order (http-gates.ts: drain, Host,
 * OAuth metadata, Origin, CORS, bearer token, OAuth token, path), and the MCP endpoint at `/mcp`. One log line per
 * request. In-process tests use this directly.
 */
export async function startHttpServer(
  create: ServerFactory,
  config: Config,
  runtime: HttpRuntime,
): Promise<HttpServerHandle> {
  const options = config.http;
  const now = runtime.now ?? Date.now;
  const graceMs = runtime.graceMs ?? config.shutdownGraceMs;
  const log = (entry: object) => runtime.log(JSON.stringify(entry));
  const failures = new FailureBackoff({ ...AUTH_BACKOFF, now });
  const trusted = trustedProxies(options.trustedProxies);
  const sessions = new SessionStore<McpSession>({
    maxSessions: options.maxSessions,
    maxSessionsPerClient: options.maxSessionsPerClient,
    idleMs: options.sessionIdleMs,
    now,
    onExpire: () => log({ event: 'session_expired', idleMs: options.sessionIdleMs }),
    // No id and no client: the line says that the cap made room, and how long the closed session had been idle.
    onEvict: (cap, idleMs) =>
      log({ event: 'session_evicted', cap: cap === 'client_full' ? 'per_client' : 'server', idleMs }),
  });
  const oauth: ResourceServer | undefined = options.oauth
    ? oauthResourceServer(options.oauth, { now, log, dispatcher: runtime.dispatcher })
    : undefined;
  const endpoint = mcpEndpoint(create, options, sessions, runtime.log, oauth?.insufficientScope);

  // Replaced once listening: with --port 0 only then is the port known (no request arrives before).
  let policy: HostPolicy = hostPolicy(options, options.allowedHosts, options.allowedOrigins);
  let draining = false;
  let inFlight = 0;

  // Node's own request timeout is the backstop for requests whose body is never read (refused before it): a
  // second after ours, so that a body being read gets our JSON-RPC 408 first. Checked every half second.
  const server = createHttpServer(
    {
      requestTimeout: options.requestTimeoutMs + 1000,
      headersTimeout: Math.min(options.requestTimeoutMs, HEADERS_TIMEOUT_MS),
      connectionsCheckingInterval: 500,
    },
    (req, res) => {
      res.once('close', connections.begin(req.socket));
      const started = now();
      const notes: RequestNotes = {};
      // A long-lived stream (GET /mcp) does not hold up shutdown: closing its session ends it.
      const tracked = !draining && !(req.method === 'GET' && pathOf(req) === MCP_PATH);
      if (tracked) inFlight += 1;
      res.once('close', () => {
        const entry: RequestLogEntry = {
          event: 'http_request',
          method: req.method ?? '',
          path: pathOf(req),
          status: res.headersSent ? res.statusCode : 0,
          ms: now() - started,
        };
        if (notes.rpc) entry.rpc = notes.rpc;
        if (notes.tool) entry.tool = notes.tool;
        if (notes.refused) entry.refused = notes.refused;
        if (notes.era) entry.era = notes.era;
        runtime.log(formatRequestLog(entry));
        if (tracked) inFlight -= 1;
      });
      handle(req, res, notes).catch((error: unknown) => {
        log({ event: 'http_error', message: (error as Error)?.message ?? String(error) });
        if (!res.headersSent) sendRpcError(res, 500, RPC_ERROR.InternalError, 'Internal error');
        else res.destroy();
      });
    },
  );
  let refusedConnections = 0;
  /** Said once: X-Forwarded-For came from a peer that SVC_MCP_TRUSTED_PROXIES does not list. */
  let warnedUnlistedProxy = false;
  let refusalLog: NodeJS.Timeout | undefined;
  const logRefusals = () => {
    if (refusedConnections > 0)
      log({ event: 'connections_refused', maxConnections: options.maxConnections, count: refusedConnections });
    refusedConnections = 0;
  };
  // A share per address of SVC_MCP_MAX_CONNECTIONS, counted from the accept, under contention only; one log line a
  // second at most, however many connections a flood brings.
  const connections = new ConnectionShares<Socket>(options.maxConnections, () => {
    refusedConnections += 1;
    if (refusalLog) return;
    logRefusals();
    refusalLog = setTimeout(() => {
      refusalLog = undefined;
      logRefusals();
    }, 1000);
    refusalLog.unref();
  });
  server.on('connection', (socket: Socket) => {
    socket.once('close', () => connections.forget(socket));
    connections.accept(socket, peerKey(socket.remoteAddress));
  });

  const gateList = gates({
    draining: () => draining,
    policy: () => policy,
    checkBearer: options.authToken ? bearerChecker(options.authToken) : undefined,
    failures,
    oauth,
  });

  async function handle(req: IncomingMessage, res: ServerResponse, notes: RequestNotes): Promise<void> {
    const path = pathOf(req);
    if (path === HEALTH_PATH) return health(req, res);
    const address = clientAddress(req, trusted);
    const client = clientKey(address);
    if (!warnedUnlistedProxy && forwardedByUnlisted(req, trusted)) {
      warnedUnlistedProxy = true;
      log({ event: 'proxy_not_trusted', message: UNLISTED_PROXY });
    }
    // Wrong static tokens slow an address down, but not a loopback one: it may be every client of a local proxy, and
    // one guesser would lock all of them out (a share of places or sessions is a limit; this would be a denial). Wrong
    // OAuth tokens cost only their sender (oauth/refused-tokens.ts): a signature is no secret one could guess.
    const request: GateRequest = { req, res, notes, path, client, guesser: isLoopback(address) ? undefined : client };
    if (await answeredByGates(gateList, request)) return;
    // OAuth mode: the user is the client of the per-client limits, whatever address it comes from.
    return endpoint(req, res, notes, request.caller?.key ?? client, request.caller);
  }

  /** For load balancers and orchestrators: no auth, no details. */
  function health(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'application/json' });
      return void res.end(JSON.stringify({ status: 'method not allowed' }));
    }
    res.writeHead(draining ? 503 : 200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ status: draining ? 'stopping' : 'ok' }));
  }

  const sweepEvery = Math.min(Math.max(Math.floor(options.sessionIdleMs / 4), 250), 30_000);
  const sweeper = options.stateless ? undefined : setInterval(() => sessions.sweep(), sweepEvery);
  sweeper?.unref();

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    if (sweeper) clearInterval(sweeper);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new StartupError(`cannot listen on ${options.host}:${options.port}: ${code} (${(error as Error).message})`);
    }
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  policy = hostPolicy({ host: options.host, port }, options.allowedHosts, options.allowedOrigins);
  server.on('error', (error) => log({ event: 'http_error', message: error.message }));

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;

  /**
   * Stop accepting; wait for in-flight requests (at most graceMs); then stop the tool calls still running, each of
   * which answers on its stream that it was stopped and whether its request was sent, and give those answers a
   * moment to go out; close sessions and connections.
   */
  async function shutdown(): Promise<void> {
    draining = true;
    if (sweeper) clearInterval(sweeper);
    clearTimeout(refusalLog);
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await finishInFlight({
      answered: () => inFlight === 0,
      count: () => inFlight,
      graceMs,
      calls: create.calls,
      stoppedMs: STOPPED_CALLS_MS,
      log,
    });
    await sessions.closeAll();
    await endpoint.close();
    server.closeAllConnections();
    await stopped;
    resolveClosed();
  }

  const host = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}${MCP_PATH}`,
    port,
    close: () => (closing ??= shutdown()),
    closed,
  };
}

const UNLISTED_PROXY =
  `a request carries X-Forwarded-For from a peer not listed in ${envName('SVC_MCP_TRUSTED_PROXIES')}: if that peer is a reverse ` +
  'proxy, every client behind it counts as one client (one share of sessions and places); ' +
  'list it to count them one by one (docs/http.md#limits)';

/** A start-up failure the user can fix (port taken, address not available): one line, no stack trace. */
class StartupError extends Error {
  override name = 'StartupError';
}
