import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { CATALOGUE } from '../catalogue/catalogue.js';
import { toolDefinition } from './catalogue-tools.js';
import { workflowDefinition } from './workflow-tool.js';

/**
 * Every tool's MCP definition, in list order: the fifteen operations (CATALOGUE order), then the workflow tool.
 * Pure. The bundle replaces this module with the same list computed at build time (scripts/build.mjs), which
 * takes JSON Schema generation (~8 ms) off every start; a test checks that the two agree.
 */
export function toolDefinitions(): Tool[] {
  return [...CATALOGUE.map(toolDefinition), workflowDefinition()];
}
