import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Agent, fetch as undiciFetch, WebSocket, type MessageEvent } from 'undici';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI_PATH } from './spawn-server.js';

export interface HttpServerProcess {
  /** The MCP endpoint as printed by the server, e.g. http://127.0.0.1:PORT/mcp. */
  url: string;
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  child: ChildProcess;
  stderr(): string;
  /** Sends the signal and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
}

/**
 * Spawns `node dist/cli.js --http --port 0 ...` with exactly the given environment (plus PATH) and waits for
 * the "listening on <url>" line on stderr.
 */
export async function spawnHttpServer(
  args: string[],
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<HttpServerProcess> {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} does not exist: run \`npm run build\` first`);
  const child = spawn(process.execPath, [...nodeArgs, CLI_PATH, '--http', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time; stderr:\n${stderr}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening; stderr:\n${stderr}`));
    });
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    port: Number(parsed.port),
    child,
    stderr: () => stderr,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs the CLI to completion (for start-up refusals) and returns its exit code and stderr. */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** One connection pool per source address, for the whole test file. */
const agents = new Map<string, Agent>();

/**
 * A fetch whose connections leave from `address` (127.0.0.2, ...): another loopback address is another client of the
 * per-client limits, as another host would be.
 */
function fetchFrom(address: string): typeof fetch {
  let dispatcher = agents.get(address);
  if (!dispatcher) agents.set(address, (dispatcher = new Agent({ localAddress: address })));
  return ((input: string | URL, init?: RequestInit) =>
    undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch;
}

/**
 * An SDK Client connected over Streamable HTTP; with `elicit`, it shows forms and answers them so; with `from`, its
 * connections leave from that loopback address.
 */
export async function connectClient(
  url: string,
  headers: Record<string, string> = {},
  elicit?: (request: ElicitRequest) => ElicitResult,
  from?: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    ...(from ? { fetch: fetchFrom(from) } : {}),
  });
  const client = new Client(
    { name: 'svc-platform-mcp-http-tests', version: '0.0.0' },
    elicit ? { capabilities: { elicitation: { form: {} } } } : undefined,
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request));
  await client.connect(transport);
  return { client, transport };
}

/** What the HTTP tests do with a client, whichever SDK and era it speaks. */
export interface AnyEraClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * A client of either era with the given headers: `2025` is the v1 SDK's client (initialize, a session unless the
 * server is stateless), `2026` the v2 SDK's client pinned to 2026-07-28 (no session; each request carries its
 * version and capabilities). With `elicit`, it shows forms and answers them so; with `from`, its connections leave
 * from that loopback address.
 */
export async function connectEraClient(
  era: '2025' | '2026',
  url: string,
  headers: Record<string, string> = {},
  elicit?: (request: ElicitRequest) => ElicitResult,
  from?: string,
): Promise<AnyEraClient> {
  if (era === '2025') return (await connectClient(url, headers, elicit, from)).client as unknown as AnyEraClient;
  const client = new ModernClient(
    { name: 'svc-platform-mcp-http-tests', version: '0.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      ...(elicit ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  if (elicit) client.setRequestHandler('elicitation/create', (request) => elicit(request as ElicitRequest));
  await client.connect(
    new ModernTransport(new URL(url), { requestInit: { headers }, ...(from ? { fetch: fetchFrom(from) } : {}) }),
  );
  return client as unknown as AnyEraClient;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A raw HTTP request with full control of the headers (fetch forbids setting Host). The body is sent as
 * given; `Content-Type: application/json` and the Accept header the transport requires are defaults.
 */
export function rawRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string | string[]>;
    body?: string | Buffer;
    /** The source address (another loopback address is another client: 127.0.0.2, ...). */
    from?: string;
  } = {},
): Promise<RawResponse> {
  const target = new URL(url);
  // A header given as a list is sent as that many lines.
  const headers: Record<string, string | string[]> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    ...options.headers,
  };
  if (options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? 'POST',
        headers,
        agent: false,
        ...(options.from ? { localAddress: options.from } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

/**
 * Opens a session's `GET /mcp` stream and settles once its answer's head arrived: the status, what came with it,
 * and `close()`, which ends the stream. A refused stream (not 200) is already read whole.
 */
export function openStream(
  url: string,
  sessionId: string,
  options: { headers?: Record<string, string>; from?: string } = {},
): Promise<{ status: number; body: () => string; ended: Promise<void>; close(): void }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'GET',
        headers: {
          Accept: 'text/event-stream',
          'Mcp-Session-Id': sessionId,
          'Mcp-Protocol-Version': '2025-06-18',
          ...options.headers,
        },
        agent: false,
        ...(options.from ? { localAddress: options.from } : {}),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', () => {});
        const ended = new Promise<void>((done) => res.once('close', () => done()));
        const answer = { status: res.statusCode ?? 0, body: () => text, ended, close: () => req.destroy() };
        if (answer.status === 200) resolve(answer);
        else res.on('end', () => resolve(answer));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/** The JSON-RPC message in a response body that is either JSON or one SSE `data:` event. */
export function rpcMessage(body: string): { result?: unknown; error?: { code: number; message: string } } {
  const text = body.trimStart().startsWith('{') ? body : (/^data: (.*)$/m.exec(body)?.[1] ?? 'null');
  return JSON.parse(text) as { result?: unknown; error?: { code: number; message: string } };
}

/** Resident set size of a process in bytes, from /proc (Linux). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}

/** Polls until the predicate holds (log lines reach stderr a moment after the response). */
export async function waitFor(predicate: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Heap in use after a full garbage collection, read through the inspector of a process spawned with
 * `--inspect=127.0.0.1:0` (its "Debugger listening on ws://..." line is on stderr). RSS alone mostly shows
 * when the GC chose to run; this shows what is still reachable.
 */
export async function heapAfterGc(stderr: string): Promise<number> {
  const url = /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1];
  if (!url) throw new Error('no inspector URL on stderr (spawn with --inspect=127.0.0.1:0)');
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve());
    ws.addEventListener('error', () => reject(new Error('inspector connection failed')));
  });
  let next = 0;
  const send = (method: string, params: object = {}) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = (next += 1);
      const onMessage = (event: MessageEvent) => {
        const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
        if (message.id !== id) return;
        ws.removeEventListener('message', onMessage);
        resolve(message.result ?? {});
      };
      ws.addEventListener('message', onMessage);
      ws.send(JSON.stringify({ id, method, params }));
    });
  try {
    for (let i = 0; i < 3; i += 1) await send('HeapProfiler.collectGarbage');
    const result = await send('Runtime.evaluate', {
      expression: 'process.memoryUsage().heapUsed',
      returnByValue: true,
    });
    return (result.result as { value: number }).value;
  } finally {
    ws.close();
  }
}
