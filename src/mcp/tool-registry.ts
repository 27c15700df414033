import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ConfirmationChannel } from './confirmation.js';
import { registerLogging, type Note } from './logging.js';
import { whyDisabled, type ToolFacts, type ToolPolicy } from './tool-policy.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a call needs to know of the server and client it runs for. */
export interface CallSession {
  /** Destructive calls need the user's confirmation (off with --no-confirm). */
  confirmDestructive: boolean;
  channel: ConfirmationChannel;
  /** Tells the client what happens while the call runs (MCP log messages). */
  note: Note;
}

export interface ToolHandler {
  definition: Tool;
  facts: ToolFacts;
  call(args: Record<string, unknown> | undefined, extra: ToolExtra, session: CallSession): Promise<CallToolResult>;
}

export interface RegistryOptions {
  policy: ToolPolicy;
  confirmDestructive: boolean;
  /** Whether this server may ask the client for forms (never over stateless HTTP: the answer could not come back). */
  elicitation: boolean;
}

/** A user typing an id into a form can take a while; a form left open longer ends the call. */
const CONFIRMATION_TIMEOUT_MS = 5 * 60_000;

/**
 * tools/list and tools/call on the SDK's Server. We validate arguments ourselves (the executor names the field and
 * the rule, and refuses before anything is sent), so the definitions are plain JSON Schema. Only the tools the
 * policy enables are listed; calling another is a tool error, and nothing is sent.
 */
export function registerTools(server: Server, handlers: readonly ToolHandler[], options: RegistryOptions): void {
  const byName = new Map(handlers.map((h) => [h.definition.name, h]));
  const listing = {
    tools: handlers
      .filter((h) => whyDisabled(options.policy, h.facts) === undefined)
      .map((h) => (options.confirmDestructive ? h.definition : withoutConfirm(h.definition))),
  };
  server.registerCapabilities({ tools: { listChanged: false } });
  const noteFor = registerLogging(server);
  server.setRequestHandler(ListToolsRequestSchema, () => listing);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const handler = byName.get(name);
    // A protocol error (-32602), as the MCP specification asks for an unknown tool. Thrown as a plain error with a
    // code: McpError would put "MCP error -32602:" into the message, and the client adds it once more.
    if (!handler) throw Object.assign(new Error(`Unknown tool: ${name}`), { code: ErrorCode.InvalidParams });
    const disabled = whyDisabled(options.policy, handler.facts);
    if (disabled) return errorResult(`${name} failed [not_enabled]: ${name} is not enabled on this server: ${disabled}. Nothing was sent.`);
    const canElicit = options.elicitation && server.getClientCapabilities()?.elicitation?.form !== undefined;
    const channel: ConfirmationChannel = canElicit
      ? {
          elicit: (params) =>
            server.elicitInput(params, { relatedRequestId: extra.requestId, signal: extra.signal, timeout: CONFIRMATION_TIMEOUT_MS }),
        }
      : {};
    return handler.call(request.params.arguments, extra, { confirmDestructive: options.confirmDestructive, channel, note: noteFor(extra) });
  });
}

/** With confirmation turned off (--no-confirm), `confirm` means nothing and is not listed. */
function withoutConfirm(tool: Tool): Tool {
  const properties = tool.inputSchema.properties;
  if (!properties || !('confirm' in properties)) return tool;
  const { confirm: _, ...rest } = properties;
  return { ...tool, inputSchema: { ...tool.inputSchema, properties: rest } };
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
