import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyOperation } from '../catalogue/types.js';
import { execute, type ExecutorDeps } from '../gateway/executor.js';
import { toJsonSchema } from './json-schema.js';
import { jsonResult, runToolCall, textResult, type CallFrame } from './tool-call.js';
import type { ToolHandler } from './tool-registry.js';

/**
 * The MCP definition of an operation. Pure. An operation that may answer text (E5's XML) publishes no output
 * schema: MCP requires structured content wherever one is declared, and a text answer has none.
 */
export function toolDefinition(op: AnyOperation): Tool {
  return {
    name: op.name,
    title: op.title,
    description: op.description,
    inputSchema: toJsonSchema(op.input, 'input') as Tool['inputSchema'],
    ...(op.mayAnswerText ? {} : { outputSchema: toJsonSchema(op.output, 'output') as Tool['outputSchema'] }),
    annotations: { ...op.annotations },
  };
}

/** Catalogue entry -> tool handler: every operation runs through the one executor. */
export function catalogueTool(op: AnyOperation, definition: Tool, deps: ExecutorDeps, frame: CallFrame): ToolHandler {
  return {
    definition,
    call: (args, extra) =>
      runToolCall(frame, op.name, async () => {
        const { answer, meta } = await execute(op, args, deps, { signal: extra.signal });
        const result = answer.kind === 'text' ? textResult(answer.value, frame.secrets) : jsonResult(answer.value, frame.secrets);
        return { result, meta };
      }),
  };
}
