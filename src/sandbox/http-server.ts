import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { readLimited } from '../util/read-body.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkAuth } from './auth-check.js';
import {
  authFailed,
  badRequest,
  errorForStatus,
  HttpProblem,
  methodNotAllowed,
  notFound,
  payloadTooLarge,
  unexpected,
} from './errors.js';
import { answersInstead, type Fault, type FaultSource } from './faults.js';
import type { RecordedRequest } from './request-log.js';
import { routeKey, Router, type RouteMatch } from './router.js';
import type { Route, SandboxContext, SandboxCredentials, SandboxResponse } from './types.js';

const BODY_LIMIT_BYTES = 1024 * 1024;

/** Beyond this much discarded body the client is not worth waiting for: drop the connection. */
const DRAIN_LIMIT_BYTES = 16 * BODY_LIMIT_BYTES;

/** What a malformed-JSON fault sends: a success answer cut off mid-string. */
const TRUNCATED_JSON = '{"code":0,"message":"SUCCESS","result":{"items":[{"id":1,"name":"trunc';

export interface HttpServerOptions {
  host: string;
  port: number;
  routes: readonly Route[];
  credentials: SandboxCredentials;
  now: () => number;
  faults: FaultSource;
  record: (entry: RecordedRequest) => void;
  log?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function listen(options: HttpServerOptions): Promise<RunningServer> {
  const router = new Router(options.routes);
  const shutdown = new AbortController();
  const server = createServer((req, res) => {
    dispatch(req, res).catch((error: unknown) => {
      options.log?.(`sandbox: internal error: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) send(res, unexpected('the sandbox failed to answer'));
      else res.destroy();
    });
  });

  async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUri = req.url ?? '/';
    const q = rawUri.indexOf('?');
    const pathname = q === -1 ? rawUri : rawUri.slice(0, q);
    const match = router.match(method, pathname);

    const body = await readBody(req);
    options.record({ method, rawUri, headers: req.headers, body: body.text });

    const fault = options.faults.take(match.kind === 'route' ? routeKey(match.route) : undefined);
    if (fault?.latencyMs) {
      try {
        await sleep(fault.latencyMs, undefined, { signal: shutdown.signal });
      } catch {
        req.socket.destroy();
        return;
      }
    }
    // Only the path is logged: queries and headers stay out of logs.
    const logLine = (outcome: string) =>
      options.log?.(`sandbox: ${method} ${pathname} -> ${outcome} (${Math.round(performance.now() - started)} ms)`);
    if (fault && answersInstead(fault)) {
      if (fault.reset) {
        req.socket.destroy();
        logLine('connection reset (fault)');
        return;
      }
      const response = faultResponse(fault);
      send(res, response);
      logLine(`${response.status} (fault)`);
      return;
    }

    const response = body.tooLarge
      ? payloadTooLarge(`request body exceeds ${BODY_LIMIT_BYTES} bytes`)
      : await answer(req, method, rawUri, pathname, match, body.text);
    send(res, response);
    logLine(String(response.status));
  }

  async function answer(
    req: IncomingMessage,
    method: string,
    rawUri: string,
    pathname: string,
    match: RouteMatch,
    text: string,
  ): Promise<SandboxResponse> {
    switch (match.kind) {
      case 'not-found':
        return notFound(`no resource at ${method} ${pathname}`);
      case 'method-not-allowed':
        return { ...methodNotAllowed(`${method} is not allowed here`), headers: { allow: match.allow.join(', ') } };
      case 'bad-path':
        return badRequest(match.details);
      case 'route':
        break;
    }
    const { route, params } = match;
    // The gateway authenticates before it looks at the body, so a bad credential wins over a bad body.
    const auth = checkAuth(route.auth, req.headers, method, rawUri, options.credentials, options.now());
    if (!auth.ok) return authFailed(auth.reason);
    const parsed = parseBody(text, req.headers['content-type']);
    if (!parsed.ok) return badRequest(parsed.details);
    const ctx: SandboxContext = { now: options.now };
    const query = new URLSearchParams(rawUri.slice(pathname.length + 1));
    try {
      return await route.handle({ method, rawUri, params, query, headers: req.headers, body: parsed.body }, ctx);
    } catch (error) {
      if (error instanceof HttpProblem) return error.response;
      const reason = error instanceof Error ? error.message : String(error);
      options.log?.(`sandbox: handler of ${routeKey(route)} failed: ${reason}`);
      return unexpected('the simulated service failed');
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        shutdown.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets of clients would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

interface ReadBody {
  text: string;
  tooLarge: boolean;
}

/** Reads the body up to the limit; an oversized body is drained (not buffered) so the 413 can be delivered. */
async function readBody(req: IncomingMessage): Promise<ReadBody> {
  const body = await readLimited(req, {
    maxBytes: BODY_LIMIT_BYTES,
    overflow: 'drain',
    drainLimitBytes: DRAIN_LIMIT_BYTES,
  });
  if (body.kind === 'aborted') throw new Error('client closed the connection before sending the whole body');
  return body.kind === 'too-large'
    ? { text: '', tooLarge: true }
    : { text: body.bytes.toString('utf8'), tooLarge: false };
}

type Parsed = { ok: true; body: unknown } | { ok: false; details: string };

function parseBody(text: string, contentType: string | undefined): Parsed {
  if (text === '') return { ok: true, body: undefined };
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') {
    // Object.fromEntries defines own properties, so a field named __proto__ cannot reach the prototype.
    return { ok: true, body: Object.fromEntries(new URLSearchParams(text)) };
  }
  if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
    return { ok: false, details: `unsupported content type ${type}` };
  }
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, details: 'request body is not valid JSON' };
  }
}

function faultResponse(fault: Fault): SandboxResponse {
  const headers =
    fault.retryAfterSeconds === undefined ? undefined : { 'retry-after': String(Math.ceil(fault.retryAfterSeconds)) };
  const json = 'application/json; charset=utf-8';
  if (fault.malformedJson) {
    const text = fault.body ?? TRUNCATED_JSON;
    return { status: fault.status ?? 200, text, contentType: fault.contentType ?? json, headers };
  }
  const status = fault.status ?? (fault.retryAfterSeconds !== undefined ? 429 : 500);
  if (fault.body !== undefined) return { status, text: fault.body, contentType: fault.contentType ?? json, headers };
  return { ...errorForStatus(status), headers };
}

function send(res: ServerResponse, response: SandboxResponse): void {
  if (res.headersSent || res.destroyed) return;
  let payload = '';
  let contentType: string | undefined;
  if (response.text !== undefined) {
    payload = response.text;
    contentType = response.contentType ?? 'text/plain; charset=utf-8';
  } else if (response.json !== undefined) {
    payload = JSON.stringify(response.json);
    contentType = response.contentType ?? 'application/json; charset=utf-8';
  }
  const headers: Record<string, string | number> = { 'content-length': Buffer.byteLength(payload) };
  if (contentType) headers['content-type'] = contentType;
  for (const [name, value] of Object.entries(response.headers ?? {})) headers[name.toLowerCase()] = value;
  res.writeHead(response.status, headers);
  res.end(payload);
}
