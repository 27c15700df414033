import type { Tool } from '@modelcontextprotocol/server';
import type { CallContext, ToolOutcome } from '../call/pipeline.js';
import type { ToolFacts } from './tool-policy.js';

/** A tool as the server holds it, built once per process: its definition, what the policy knows of it, its call. */
export interface ToolHandler {
  definition: Tool;
  facts: ToolFacts;
  call(args: Record<string, unknown> | undefined, ctx: CallContext): Promise<ToolOutcome>;
}
