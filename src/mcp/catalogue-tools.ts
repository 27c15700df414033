import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Operation } from '../catalogue/types.js';
import { execute, type ExecutorDeps } from '../gateway/executor.js';
import { toJsonSchema } from './json-schema.js';
import { jsonResult, runToolCall, textResult, type CallLog } from './tool-call.js';
import type { ToolHandler } from './tool-registry.js';

export type { CallLog } from './tool-call.js';

/** The MCP definition of an operation. Pure; computed once per process. */
export function toolDefinition(op: Operation): Tool {
  return {
    name: op.name,
    title: op.title,
    description: op.description,
    inputSchema: toJsonSchema(op.input, 'input') as Tool['inputSchema'],
    ...(op.output ? { outputSchema: toJsonSchema(op.output, 'output') as Tool['outputSchema'] } : {}),
    annotations: { ...op.annotations },
  };
}

/** Catalogue entry -> tool handler: every operation runs through the one executor. */
export function catalogueTool(
  op: Operation,
  definition: Tool,
  deps: ExecutorDeps,
  secrets: readonly string[],
  log: CallLog,
): ToolHandler {
  const ctx = { tool: op.name, now: deps.now, secrets, log };
  return {
    definition,
    call: (args, extra) =>
      runToolCall(ctx, async (record) => {
        const answer = await execute(op, args, deps, extra.signal, record);
        return answer.kind === 'text' ? textResult(answer.value, secrets) : jsonResult(answer.value, secrets);
      }),
  };
}
