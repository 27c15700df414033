import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { LoggingLevelSchema, SetLevelRequestSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { ToolExtra } from './tool-registry.js';

/** What a call tells the client while it runs (a retry and its wait, an upstream deprecation): MCP log messages. */
export type Note = (level: LoggingLevel, message: string) => void;

const SEVERITY = new Map(LoggingLevelSchema.options.map((level, i) => [level, i]));
const LOGGER = 'svc-platform-mcp';

/**
 * MCP logging for one server: declares the capability, honours `logging/setLevel`, and sends each message on the
 * stream of the request it belongs to (over HTTP, the call's own stream). Before any setLevel, everything is sent.
 */
export function registerLogging(server: Server): (extra: ToolExtra) => Note {
  let minimum: LoggingLevel | undefined;
  server.registerCapabilities({ logging: {} });
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    minimum = request.params.level;
    return {};
  });
  return (extra) => (level, message) => {
    if (minimum !== undefined && SEVERITY.get(level)! < SEVERITY.get(minimum)!) return;
    extra
      .sendNotification({ method: 'notifications/message', params: { level, logger: LOGGER, data: message } })
      // A lost log message must not fail the call.
      .catch(() => {});
  };
}
