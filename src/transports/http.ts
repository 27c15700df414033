import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Config } from '../config.js';

export interface HttpRuntime {
  log(line: string): void;
  /** Registers the handler of SIGINT/SIGTERM (the CLI owns the process). */
  onSignal(handler: (signal: string) => void): void;
}

// Placeholder until the Streamable HTTP transport lands.
export async function serveHttp(_create: () => McpServer, _config: Config, _runtime: HttpRuntime): Promise<void> {
  throw new Error('--http is not implemented yet');
}
