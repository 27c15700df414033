import { TOOL_NAMES } from '../config/index.js';
import type { Narrowing } from '../mcp/tool-policy.js';

/** The headers by which one HTTP client narrows the tools it gets: they can only take tools away. */
const READ_ONLY_HEADER = 'x-mcp-read-only';
const TOOLS_HEADER = 'x-mcp-tools';

export type NarrowingResult = { ok: true; narrowing?: Narrowing } | { ok: false; message: string };

/** Each header's lines as they came (IncomingMessage.headersDistinct): Node's `headers` joins repeated lines. */
export type DistinctHeaders = NodeJS.Dict<string[]>;

/**
 * X-MCP-Read-Only: true|false and X-MCP-Tools: a,b; a wrong value is refused rather than ignored. Either may come
 * more than once (say a proxy's, then the client's own): each line narrows, never widens, so the X-MCP-Tools lists are
 * intersected and any X-MCP-Read-Only: true wins.
 */
export function narrowingFrom(headers: DistinctHeaders): NarrowingResult {
  const narrowing: Narrowing = {};
  const readOnly = headers[READ_ONLY_HEADER]?.map((line) => line.trim().toLowerCase());
  if (readOnly !== undefined) {
    if (readOnly.some((v) => v !== 'true' && v !== 'false'))
      return { ok: false, message: 'X-MCP-Read-Only must be true or false' };
    narrowing.readOnly = readOnly.includes('true');
  }
  const lists = headers[TOOLS_HEADER]?.map((line) =>
    line
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  );
  if (lists !== undefined) {
    const unknown = [...new Set(lists.flat())].filter((n) => !TOOL_NAMES.includes(n));
    if (unknown.length > 0)
      return {
        ok: false,
        message: `X-MCP-Tools names unknown tools (${unknown.join(', ')}); valid: ${TOOL_NAMES.join(', ')}`,
      };
    narrowing.tools = lists.reduce((kept, list) => kept.filter((name) => list.includes(name)));
  }
  return { ok: true, ...(Object.keys(narrowing).length > 0 ? { narrowing } : {}) };
}
