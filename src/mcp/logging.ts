import type { ServerContext } from '@modelcontextprotocol/server';
import type { Note } from '../call/pipeline.js';

const LOGGER = 'svc-platform-mcp';

/**
 * What a call tells the client while it runs (a retry and its wait, an upstream deprecation), as MCP log messages on
 * the stream of the request they belong to. The SDK applies the level: a 2025 session's `logging/setLevel` (all
 * levels before any), a 2026-07-28 request's own log level (none when the request sets no level).
 */
export function noteFor(ctx: ServerContext): Note {
  return (level, message) => {
    // A lost log message must not fail the call.
    ctx.mcpReq.log(level, message, LOGGER).catch(() => {});
  };
}
