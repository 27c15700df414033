import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { LineFilter, STDIO_MAX_LINE_BYTES } from './stdio-lines.js';

export interface StdioRuntime {
  log(line: string): void;
  /** The longest line read; STDIO_MAX_LINE_BYTES by default. */
  maxLineBytes?: number;
}

/**
 * Serves one session over the given streams (stdin/stdout from the CLI). Resolves when the client closes
 * its end, so that the caller can release the sandbox and the connection pool and exit.
 */
export async function serveStdio(server: McpServer, input: Readable, output: Writable, runtime: StdioRuntime): Promise<void> {
  const log = (entry: object) => runtime.log(JSON.stringify(entry));
  const maxLineBytes = runtime.maxLineBytes ?? STDIO_MAX_LINE_BYTES;
  const filter = new LineFilter({ output, maxLineBytes, log });
  // The filter passes one line of at most maxLineBytes per chunk: the SDK's buffer never holds more.
  const transport = new StdioServerTransport(filter, output, { maxBufferSize: maxLineBytes + 1 });
  const closed = new Promise<void>((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
    server.server.onclose = resolve;
  });
  await server.connect(transport);
  input.pipe(filter);
  await closed;
  await server.close();
}
