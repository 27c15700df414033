import type { Tool } from '@modelcontextprotocol/server';
import type { CallFrame } from '../call/pipeline.js';
import { MAX_TEXT_LENGTH } from './chunking.js';
import { serviceIcons } from './icons.js';
import { toJsonSchema } from './json-schema.js';
import type { ToolHandler } from './tool-handler.js';
import { runWorkflow, type WorkflowOperations } from './workflow-run.js';
import { WORKFLOW_TOOL_NAME, workflowSchemas as schemas } from './workflow-schema.js';
import { TEXT_LIMIT } from '../catalogue/translation-rules.js';

export { WORKFLOW_TOOL_NAME } from './workflow-schema.js';

/** The tool's MCP definition. Pure. */
export const workflowDefinition = (): Tool => ({
  name: WORKFLOW_TOOL_NAME,
  title: 'Translate and summarize text',
  description:
    `Translates text of up to ${MAX_TEXT_LENGTH.toLocaleString('en-US')} chars (calls of at most ${TEXT_LIMIT}, split at ` +
    'sentence boundaries), then summarizes it in the target language (summarize false: translation only). One ' +
    'deadline for all calls; reports progress; cancellable. (The prompt of this name has the model make the calls.)',
  inputSchema: toJsonSchema(schemas().input, 'input') as Tool['inputSchema'],
  outputSchema: toJsonSchema(schemas().output, 'output') as Tool['outputSchema'],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  icons: serviceIcons('translation'),
});

/** The tool: its definition here, its run in workflow-run.ts. */
export function translateAndSummarizeTool(
  definition: Tool,
  frame: CallFrame,
  operations: WorkflowOperations,
): ToolHandler {
  return {
    definition,
    facts: {
      name: WORKFLOW_TOOL_NAME,
      readOnly: true,
      services: [operations.translate.service, operations.complete.service],
    },
    call: (rawArgs, ctx) => runWorkflow(rawArgs, ctx, frame, operations),
  };
}
