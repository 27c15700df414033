import type { IncomingHttpHeaders } from 'node:http';
import { TOOL_NAMES } from '../config.js';
import type { Narrowing } from '../mcp/tool-policy.js';

/** The headers by which one HTTP client narrows the tools it gets: they can only take tools away. */
const READ_ONLY_HEADER = 'x-mcp-read-only';
const TOOLS_HEADER = 'x-mcp-tools';

export type NarrowingResult = { ok: true; narrowing?: Narrowing } | { ok: false; message: string };

/** X-MCP-Read-Only: true|false and X-MCP-Tools: a,b; a wrong value is refused rather than ignored. */
export function narrowingFrom(headers: IncomingHttpHeaders): NarrowingResult {
  const single = (name: string) => {
    const v = headers[name];
    return (Array.isArray(v) ? v.join(',') : v)?.trim();
  };
  const narrowing: Narrowing = {};
  const readOnly = single(READ_ONLY_HEADER)?.toLowerCase();
  if (readOnly !== undefined) {
    if (readOnly !== 'true' && readOnly !== 'false') return { ok: false, message: 'X-MCP-Read-Only must be true or false' };
    narrowing.readOnly = readOnly === 'true';
  }
  const tools = single(TOOLS_HEADER);
  if (tools !== undefined) {
    const names = tools.split(',').map((t) => t.trim()).filter(Boolean);
    const unknown = names.filter((n) => !TOOL_NAMES.includes(n));
    if (unknown.length > 0) return { ok: false, message: `X-MCP-Tools names unknown tools (${unknown.join(', ')}); valid: ${TOOL_NAMES.join(', ')}` };
    narrowing.tools = names;
  }
  return { ok: true, ...(Object.keys(narrowing).length > 0 ? { narrowing } : {}) };
}
