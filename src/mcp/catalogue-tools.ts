import type { Tool } from '@modelcontextprotocol/server';
import { callOperation, type CallFrame } from '../call/pipeline.js';
import { dryRunOutput } from '../call/dry-run.js';
import { compileOperation, type CompiledOperation } from '../catalogue/compile.js';
import { DEFAULT_STREAMING_REGION, regionDescription, type StreamingRegion } from '../catalogue/fields.js';
import type { AnyOperation } from '../catalogue/types.js';
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
  const operation = compileOperation(op, { defaultRegion: DEFAULT_STREAMING_REGION });
  const input = toJsonSchema(op.input, 'input');
  input.properties = { ...(input.properties as object), ...safetyProperties(operation) };
  return {
    name: op.name,
    title: op.title,
    description: op.description,
    inputSchema: input as Tool['inputSchema'],
    ...(operation.answersText ? {} : { outputSchema: outputSchema(operation) }),
    annotations: { ...op.annotations },
    icons: serviceIcons(op.service),
  };
}

/** JSON Schema of the arguments this server adds (none for a read-only operation). */
function safetyProperties({ addedArguments }: CompiledOperation): Record<string, object> {
  const properties: Record<string, object> = {};
  if (addedArguments.dryRun) properties.dryRun = { type: 'boolean', description: 'Show the request; send nothing' };
  const confirm = addedArguments.confirm;
  if (confirm) properties.confirm = { type: 'string', description: `The ${confirm} again, only once the user agreed` };
  return properties;
}

function outputSchema(operation: CompiledOperation): Tool['outputSchema'] {
  const output = toJsonSchema(operation.output, 'output');
  if (operation.addedArguments.dryRun) {
    output.properties = { ...(output.properties as object), dryRun: toJsonSchema(dryRunOutput(), 'output') };
    delete output.required;
  }
  return output as Tool['outputSchema'];
}

/** A compiled operation as a tool: every call runs through the one pipeline. */
export function catalogueTool(
  operation: CompiledOperation,
  definition: Tool,
  frame: CallFrame,
  defaultRegion: StreamingRegion,
): ToolHandler {
  return {
    definition: operation.notSent.has('region') ? withRegionDefault(definition, defaultRegion) : definition,
    facts: { name: operation.name, readOnly: operation.effect === 'read', services: [operation.service] },
    call: (args, ctx) => callOperation(operation, args, frame, ctx),
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
