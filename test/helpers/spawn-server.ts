import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/** The built server (`npm run build`); the e2e tests drive exactly what `bin` runs. */
export const CLI_PATH = process.env.SVC_MCP_TEST_CLI ?? fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/**
 * Warns (once) when a source file is newer than the bundle: `npm test` rebuilds first, a bare `vitest run` does not.
 */
let staleChecked = false;
function warnIfStale(): void {
  if (staleChecked || process.env.SVC_MCP_TEST_CLI) return;
  staleChecked = true;
  const built = statSync(CLI_PATH).mtimeMs;
  const newer = (dir: string): string | undefined => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = newer(path);
        if (found) return found;
      } else if (entry.name.endsWith('.ts') && statSync(path).mtimeMs > built) return path;
    }
    return undefined;
  };
  const source = newer(fileURLToPath(new URL('../../src', import.meta.url)));
  if (source)
    console.warn(`warning: ${source} is newer than ${CLI_PATH}; run \`npm run build\` (npm test does it for you)`);
}

export interface SpawnedServer {
  client: Client;
  /** Tools as listed by the server (listed once at start, which also arms the client's output-schema checks). */
  tools: Tool[];
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** tools/call through the SDK client. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/**
 * Spawns `node dist/cli.js` with exactly the given environment (plus PATH; the SDK also adds its short list of
 * safe variables such as HOME) and connects the SDK's Client over stdio. stderr is captured so tests can assert
 * what the server logs.
 */
export async function spawnServer(
  env: Record<string, string>,
  args: string[] = [],
  elicit?: (request: ElicitRequest) => ElicitResult,
): Promise<SpawnedServer> {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} does not exist: run \`npm run build\` first`);
  warnIfStale();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, ...args],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client(
    { name: 'svc-platform-mcp-tests', version: '0.0.0' },
    elicit ? { capabilities: { elicitation: { form: {} } } } : undefined,
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request));
  await client.connect(transport);
  const { tools } = await client.listTools();
  return {
    client,
    tools,
    stderr: () => stderr,
    call: async (name, toolArgs) =>
      (await client.callTool({ name, arguments: toolArgs ?? {} }, undefined, { timeout: 20_000 })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of the first content item of a tool result. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (!first || first.type !== 'text') throw new Error(`expected text content, got ${JSON.stringify(result.content)}`);
  return first.text;
}
