import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Dispatcher } from 'undici';
import { CATALOGUE } from './catalogue/catalogue.js';
import type { Config } from './config.js';
import { secretsOf } from './gateway/auth.js';
import type { ExecutorDeps } from './gateway/executor.js';
import { catalogueTool, type CallLog } from './mcp/catalogue-tools.js';
import { toolDefinitions } from './mcp/tool-definitions.js';
import { registerPrompts } from './mcp/prompts.js';
import { registerResources } from './mcp/resources.js';
import { registerTools, type ToolHandler } from './mcp/tool-registry.js';
import { translateAndSummarizeTool } from './mcp/workflow-tool.js';
import { SERVER_NAME, SERVER_VERSION } from './version.js';

export { SERVER_NAME, SERVER_VERSION } from './version.js';

export interface ServerDeps {
  dispatcher: Dispatcher;
  now(): number;
  randomId(): string;
  random(): number;
  /** One line to stderr (never stdout, which belongs to the stdio transport). */
  log(line: string): void;
}

const INSTRUCTIONS = `Tools for eleven platform services (streaming, translation, data flow, maps, API gateway, data catalog, big-data apps, recommendation, text generation, search, key management) behind one API gateway.
Arguments are checked before anything is sent; a failed call returns isError with the field and rule, or the upstream's code and message.
recommendation_delete_service and kms_migrate_key destroy things: confirm with the user first.`;

const SANDBOX_NOTE = `
SANDBOX MODE: every service is the embedded simulator with demo data, not the real platform. Results are simulated.`;

/** Everything a server needs that does not change between sessions, computed once. */
export function createServerFactory(config: Config, deps: ServerDeps): () => McpServer {
  const definitions = toolDefinitions();
  const secrets = collectSecrets(config);
  const executorDeps: ExecutorDeps = {
    config,
    dispatcher: deps.dispatcher,
    now: deps.now,
    requestId: deps.randomId,
    random: deps.random,
  };
  const logCall: CallLog = (entry) => deps.log(JSON.stringify({ event: 'tool_call', ...entry }));
  const handlers: ToolHandler[] = CATALOGUE.map((op, i) => catalogueTool(op, definitions[i]!, executorDeps, secrets, logCall));
  handlers.push(translateAndSummarizeTool(definitions[CATALOGUE.length]!, executorDeps, secrets, logCall));
  const instructions = INSTRUCTIONS + (config.sandbox ? SANDBOX_NOTE : '');

  return () => {
    const server = new McpServer(
      { name: SERVER_NAME, title: 'Platform services', version: SERVER_VERSION },
      { instructions, capabilities: { logging: {} } },
    );
    registerTools(server.server, handlers);
    registerResources(server);
    registerPrompts(server);
    return server;
  };
}

function collectSecrets(config: Config): string[] {
  const { gateway, appKeys, studio } = config.credentials;
  const secrets: string[] = [];
  if (gateway) secrets.push(...secretsOf({ scheme: 'gateway-signature', keys: gateway }));
  for (const keys of Object.values(appKeys)) if (keys) secrets.push(...secretsOf({ scheme: 'app-key-upper', keys }));
  if (studio) secrets.push(...secretsOf({ scheme: 'studio', keys: studio }));
  if (config.http.authToken) secrets.push(config.http.authToken);
  return secrets;
}
