import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CLI_PATH } from './spawn-server.js';

/** One JSON-RPC message the server wrote to stdout. */
export interface RpcLine {
  jsonrpc?: string;
  id?: unknown;
  method?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export interface RawStdioServer {
  child: ChildProcessWithoutNullStreams;
  /** Every message written to stdout so far, in order. */
  readonly messages: RpcLine[];
  /** stdout lines that were not JSON (must stay empty: stdout carries only JSON-RPC). */
  readonly garbage: string[];
  stderr(): string;
  /** Writes one line (a string as is, anything else as JSON) and its newline. */
  send(message: unknown): void;
  /** Sends a request with the next id and resolves with its answer. */
  request(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<RpcLine>;
  /** Resolves with the first message (already received or to come) that matches. */
  next(match: (message: RpcLine) => boolean, timeoutMs?: number, what?: string): Promise<RpcLine>;
  /** `initialize` (protocol 2025-06-18 unless given) and `notifications/initialized`. */
  initialize(protocolVersion?: string): Promise<RpcLine>;
  /** The exit code and signal, once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Ends the process (SIGKILL) if it still runs. */
  kill(): void;
}

/**
 * Spawns `node dist/cli.js` with raw pipes: the test writes lines to stdin and reads JSON lines from stdout itself,
 * so that it can send what no SDK client would (bad lines, huge lines), close either pipe, or stop reading.
 */
export function spawnRawStdio(
  args: string[],
  env: Record<string, string>,
  options: { readStdout?: boolean } = {},
): RawStdioServer {
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const messages: RpcLine[] = [];
  const garbage: string[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  let partial = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.on('error', () => {}); // the server may be gone while the test still writes
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      try {
        messages.push(JSON.parse(line) as RpcLine);
      } catch {
        garbage.push(line);
      }
    }
    for (const wake of [...waiters]) wake();
  });
  if (options.readStdout === false) child.stdout.pause();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let nextId = 1;

  const next = (match: (message: RpcLine) => boolean, timeoutMs = 10_000, what = 'a message') =>
    new Promise<RpcLine>((resolve, reject) => {
      const check = () => {
        const found = messages.find(match);
        if (!found) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(
            `timed out waiting for ${what}; last messages: ${JSON.stringify(messages.slice(-3)).slice(-1000)}; stderr: ${stderr.slice(-1000)}`,
          ),
        );
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });

  const send = (message: unknown) =>
    void child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  const request = (method: string, params?: Record<string, unknown>, timeoutMs?: number) => {
    const id = nextId++;
    send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    return next((m) => m.id === id && !('method' in m), timeoutMs, `the answer to ${method} #${id}`);
  };

  return {
    child,
    messages,
    garbage,
    stderr: () => stderr,
    send,
    request,
    next,
    initialize: async (protocolVersion = '2025-06-18') => {
      const answer = await request('initialize', {
        protocolVersion,
        capabilities: {},
        clientInfo: { name: 'raw-stdio-test', version: '0.0.0' },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return answer;
    },
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** The first text of a tools/call result. */
export function resultText(message: RpcLine): string {
  const content = (message.result?.content ?? []) as { type: string; text?: string }[];
  return content[0]?.text ?? '';
}
