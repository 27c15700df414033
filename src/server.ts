import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CATALOGUE } from './catalogue/catalogue.js';
import type { Config } from './config.js';
import { secretsOf } from './gateway/auth.js';
import type { ExecutorDeps } from './gateway/executor.js';
import type { Upstream } from './gateway/http.js';
import { catalogueTool } from './mcp/catalogue-tools.js';
import { registerPrompts } from './mcp/prompts.js';
import { registerResources } from './mcp/resources.js';
import { sharedLazyValidator } from './mcp/schema-validator.js';
import type { CallFrame } from './mcp/tool-call.js';
import { TOOL_DEFINITIONS } from './mcp/tool-definitions.js';
import { registerTools, type ToolHandler } from './mcp/tool-registry.js';
import { WORKFLOW_TOOL_NAME, translateAndSummarizeTool } from './mcp/workflow-tool.js';
import { SERVER_NAME, SERVER_VERSION } from './version.js';

export { SERVER_NAME, SERVER_VERSION } from './version.js';

export interface ServerDeps {
  upstream: Upstream;
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
  const definition = (name: string) => {
    const found = TOOL_DEFINITIONS[name];
    if (!found) throw new Error(`no tool definition named ${name}: run \`npm run docs\``);
    return found;
  };
  const executorDeps: ExecutorDeps = {
    config,
    upstream: deps.upstream,
    now: deps.now,
    requestId: deps.randomId,
    random: deps.random,
  };
  const frame: CallFrame = {
    now: deps.now,
    secrets: collectSecrets(config),
    log: (entry) => deps.log(JSON.stringify({ event: 'tool_call', ...entry })),
  };
  const handlers: ToolHandler[] = [
    ...CATALOGUE.map((op) => catalogueTool(op, definition(op.name), executorDeps, frame)),
    translateAndSummarizeTool(definition(WORKFLOW_TOOL_NAME), executorDeps, frame),
  ];
  const instructions = INSTRUCTIONS + (config.sandbox ? SANDBOX_NOTE : '');
  const jsonSchemaValidator = sharedLazyValidator();

  return () => {
    const server = new McpServer(
      { name: SERVER_NAME, title: 'Platform services', version: SERVER_VERSION },
      { instructions, capabilities: { logging: {} }, jsonSchemaValidator },
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
