import type { Tool } from '@modelcontextprotocol/server';
import { regionDescription, type StreamingRegion } from '../catalogue/fields.js';
import type { AnyOperation } from '../catalogue/types.js';
import { decorate } from '../catalogue/compile.js';
import { dryRunOutput } from '../call/dry-run.js';
import { callOperation, type CallFrame } from '../call/pipeline.js';
import { acceptsDryRun, safetyProperties } from '../call/safety-args.js';
import { serviceIcons } from './icons.js';
import { toJsonSchema } from './json-schema.js';
import type { ToolHandler } from './tool-registry.js';

/**
 * The MCP definition of an operation. Pure. The spec's arguments, plus `dryRun` and `confirm` where they apply.
 * An operation that may answer text (E5's XML) publishes no output schema: MCP requires structured content wherever
 * one is declared, and a text answer has none. A tool that takes `dryRun` may answer with the request instead of
 * the upstream's answer, so its output schema lists `dryRun` and requires nothing.
 */
export function toolDefinition(op: AnyOperation): Tool {
  const input = toJsonSchema(op.input, 'input');
  input.properties = { ...(input.properties as object), ...safetyProperties(op) };
  return {
    name: op.name,
    title: op.title,
    description: op.description,
    inputSchema: input as Tool['inputSchema'],
    ...(decorate(op).answersText ? {} : { outputSchema: outputSchema(op) }),
    annotations: { ...op.annotations },
    icons: serviceIcons(op.service),
  };
}

function outputSchema(op: AnyOperation): Tool['outputSchema'] {
  const output = toJsonSchema(op.output, 'output');
  if (acceptsDryRun(op)) {
    output.properties = { ...(output.properties as object), dryRun: toJsonSchema(dryRunOutput(), 'output') };
    delete output.required;
  }
  return output as Tool['outputSchema'];
}

/** Catalogue entry -> tool handler: every operation runs through the one pipeline. */
export function catalogueTool(op: AnyOperation, definition: Tool, frame: CallFrame): ToolHandler {
  return {
    definition: decorate(op).notSent.has('region')
      ? withRegionDefault(definition, frame.deps.config.streamingRegion)
      : definition,
    facts: { name: op.name, readOnly: op.annotations.readOnlyHint, services: [op.service] },
    call: (args, hooks) => callOperation(op, args, frame, hooks),
  };
}

/**
 * E1/E2's `region` says the default this server applies (SVC_STREAMING_REGION, which the agent cannot see). The
 * generated definitions say the built-in default; this puts the configured one in, once per server factory.
 */
function withRegionDefault(definition: Tool, region: StreamingRegion): Tool {
  const properties = definition.inputSchema.properties;
  const current = properties?.region;
  if (!properties || !current) return definition;
  const described = { ...(current as object), description: regionDescription(region) };
  return {
    ...definition,
    inputSchema: { ...definition.inputSchema, properties: { ...properties, region: described } },
  };
}
