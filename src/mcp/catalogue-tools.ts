import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { regionDescription, type StreamingRegion } from '../catalogue/fields.js';
import type { AnyOperation } from '../catalogue/types.js';
import { executePrepared, prepare, signRequest, type ExecutorDeps } from '../gateway/executor.js';
import { confirmDestructiveCall } from './confirmation.js';
import { dryRunOutput, dryRunReply } from './dry-run.js';
import { serviceIcons } from './icons.js';
import { toJsonSchema } from './json-schema.js';
import { acceptsDryRun, safetyProperties, takeSafetyArgs } from './safety-args.js';
import { runToolCall, type CallFrame } from './tool-call.js';
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
    ...(op.mayAnswerText ? {} : { outputSchema: outputSchema(op) }),
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

/**
 * Catalogue entry -> tool handler: every operation runs through the one executor. A dry run stops after signing;
 * a destructive call waits for the user's confirmation; nothing is sent before either.
 */
export function catalogueTool(op: AnyOperation, definition: Tool, deps: ExecutorDeps, frame: CallFrame): ToolHandler {
  return {
    definition: op.streamingRegion ? withRegionDefault(definition, deps.config.streamingRegion) : definition,
    facts: { name: op.name, readOnly: op.annotations.readOnlyHint, services: [op.service] },
    call: (args, extra, session) =>
      runToolCall(frame, op.name, extra.signal, async (signal) => {
        const { safety, rest } = takeSafetyArgs(op, args);
        const call = prepare(op, rest, deps);
        if (safety.dryRun) return { reply: dryRunReply(signRequest(call, deps)) };
        if (session.confirmDestructive) await confirmDestructiveCall(op, call.args, safety.confirm, session.channel);
        const { answer, meta } = await executePrepared(call, deps, { signal, note: session.note });
        return { reply: answer.kind === 'text' ? { text: answer.value } : { json: answer.value, paging: op.paging }, meta };
      }),
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
  return { ...definition, inputSchema: { ...definition.inputSchema, properties: { ...properties, region: described } } };
}
