import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/**
 * Serves one session over the given streams (stdin/stdout from the CLI). Resolves when the client closes
 * its end, so that the caller can release the sandbox and the connection pool and exit.
 */
export async function serveStdio(server: McpServer, input: Readable, output: Writable): Promise<void> {
  const transport = new StdioServerTransport(input, output);
  const closed = new Promise<void>((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
    server.server.onclose = resolve;
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
