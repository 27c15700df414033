import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Calls } from '../mcp/calls.js';
import { LineFilter, STDIO_MAX_LINE_BYTES } from './stdio-lines.js';

export interface StdioRuntime {
  log(line: string): void;
  /** The tool calls of the process: stopped when stdout is gone, since no one is left to answer. */
  calls?: Calls;
  /** The longest line read; STDIO_MAX_LINE_BYTES by default. */
  maxLineBytes?: number;
}

/** How long stopped calls have to end (and release their upstream connections) before the session closes. */
const STOPPED_ANSWER_MS = 2_000;
const POLL_MS = 10;

/**
 * Serves one session over the given streams (stdin/stdout from the CLI). Resolves when the client closes
 * its end of either, so that the caller can release the sandbox and the connection pool and exit.
 */
export async function serveStdio(server: McpServer, input: Readable, output: Writable, runtime: StdioRuntime): Promise<void> {
  const log = (entry: object) => runtime.log(JSON.stringify(entry));
  const maxLineBytes = runtime.maxLineBytes ?? STDIO_MAX_LINE_BYTES;
  const filter = new LineFilter({ output, maxLineBytes, log });
  // The filter passes one line of at most maxLineBytes per chunk: the SDK's buffer never holds more.
  const transport = new StdioServerTransport(filter, output, { maxBufferSize: maxLineBytes + 1 });

  // A client that closed its end of stdout (EPIPE): no one is left to answer; the failed write must not crash.
  const outputGone = new AbortController();
  output.on('error', (error: NodeJS.ErrnoException) => {
    if (outputGone.signal.aborted) return;
    log({ event: 'stdout_closed', error: error.code ?? error.message, inFlight: runtime.calls?.inFlight ?? 0 });
    outputGone.abort();
  });
  output.once('close', () => outputGone.abort());

  const ending = new Promise<'input' | 'output' | 'closed'>((resolve) => {
    input.once('end', () => resolve('input'));
    input.once('close', () => resolve('input'));
    outputGone.signal.addEventListener('abort', () => resolve('output'), { once: true });
    server.server.onclose = () => resolve('closed');
  });
  await server.connect(transport);
  input.pipe(filter);
  if ((await ending) === 'output') {
    runtime.calls?.stop();
    await until(() => (runtime.calls?.inFlight ?? 0) === 0, STOPPED_ANSWER_MS);
  }
  input.unpipe(filter);
  await server.close();
}

/** Resolves true once the condition holds, false when `ms` pass first. */
async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)));
  }
  return true;
}
