import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { CATALOGUE } from '../catalogue/catalogue.js';
import { toolDefinition } from './catalogue-tools.js';
import { workflowDefinition } from './workflow-tool.js';

/** Every tool's MCP definition by name, in list order: the fifteen operations (CATALOGUE order), then the workflow tool. Pure. */
export function toolDefinitions(): Map<string, Tool> {
  const tools = [...CATALOGUE.map(toolDefinition), workflowDefinition()];
  return new Map(tools.map((tool) => [tool.name, tool]));
}
