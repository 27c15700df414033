import type { Tool } from '@modelcontextprotocol/server';
import { CATALOGUE } from '../catalogue/catalogue.js';
import GENERATED from '../generated/tool-definitions.json' with { type: 'json' };
import { toolDefinition } from './catalogue-tools.js';
import { workflowDefinition } from './workflow-tool.js';

/**
 * Every tool's MCP definition by name, in list order: the fifteen operations (CATALOGUE order), then the workflow
 * tool. Computed from the source; pure.
 */
export function computeToolDefinitions(): Record<string, Tool> {
  const tools = [...CATALOGUE.map(toolDefinition), workflowDefinition()];
  return Object.fromEntries(tools.map((tool) => [tool.name, tool]));
}

/**
 * The same, as generated into src/generated/tool-definitions.json by `npm run generate`: making the JSON Schemas is
 * the largest piece of start-up work, so it is done once per change of the source, not at every start.
 * test/docs/generated.test.ts fails when the file is not exactly what computeToolDefinitions() returns.
 */
export const TOOL_DEFINITIONS: Readonly<Record<string, Tool>> = GENERATED as unknown as Record<string, Tool>;
