import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ToolHandler {
  definition: Tool;
  call(args: Record<string, unknown> | undefined, extra: ToolExtra): Promise<CallToolResult>;
}

/**
 * tools/list and tools/call on the SDK's Server. We validate arguments ourselves (the executor names the
 * field and the rule, and refuses before anything is sent), so the definitions are plain JSON Schema,
 * computed once per process rather than per list call.
 */
export function registerTools(server: Server, handlers: readonly ToolHandler[]): void {
  const byName = new Map(handlers.map((h) => [h.definition.name, h]));
  const listing = { tools: handlers.map((h) => h.definition) };
  server.registerCapabilities({ tools: { listChanged: false } });
  server.setRequestHandler(ListToolsRequestSchema, () => listing);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const handler = byName.get(request.params.name);
    // A protocol error (-32602), as the MCP specification asks for an unknown tool. Thrown as a plain error with a
    // code: McpError would put "MCP error -32602:" into the message, and the client adds it once more.
    if (!handler) throw Object.assign(new Error(`Unknown tool: ${request.params.name}`), { code: ErrorCode.InvalidParams });
    return handler.call(request.params.arguments, extra);
  });
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
