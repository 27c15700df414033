import type { Tool } from '@modelcontextprotocol/server';
import { confirmationWords } from '../catalogue/confirmation-words.js';
import { regionDescription, type StreamingRegion } from '../catalogue/fields.js';
import type { AnyOperation } from '../catalogue/types.js';
import { decorate } from '../gateway/decorate.js';
import { dryRunOutput } from '../gateway/dry-run.js';
import { callOperation, type CallFrame, type ToolOutcome } from '../gateway/pipeline.js';
import { acceptsDryRun, safetyProperties } from '../gateway/safety-args.js';
import { serviceIcons } from './icons.js';
import { toJsonSchema } from './json-schema.js';
import type { ToolHandler } from './tool-registry.js';

/**
 * The MCP definition of an operation. Pure. The spec's arguments, plus `dryRun` and `confirm` where they apply.
 * A tool that takes `dryRun` may answer with the request instead of the upstream's answer, and one that may answer
 * text (E5's XML or JSONP) answers it as text content with `{answeredAs}` as its structured content (MCP requires
 * structured content wherever an output schema is declared): the output schema of either lists that member too and
 * requires nothing.
 */
export function toolDefinition(op: AnyOperation): Tool {
  const input = toJsonSchema(op.input, 'input');
  const confirmed = decorate(op).confirmation;
  input.properties = { ...(input.properties as object), ...safetyProperties(op) };
  return {
    name: op.name,
    title: op.title,
    description: confirmed ? `${op.description} ${confirmationWords(confirmed.field)}` : op.description,
    inputSchema: input as Tool['inputSchema'],
    outputSchema: outputSchema(op),
    annotations: { ...op.annotations },
    icons: serviceIcons(op.service),
  };
}

function outputSchema(op: AnyOperation): Tool['outputSchema'] {
  const output = toJsonSchema(op.output, 'output');
  const other = {
    ...(acceptsDryRun(op) ? { dryRun: toJsonSchema(dryRunOutput(), 'output') } : {}),
    ...(decorate(op).answersText ? { [ANSWERED_AS]: TEXT_ANSWER_SCHEMA } : {}),
  };
  if (Object.keys(other).length > 0) {
    output.properties = { ...(output.properties as object), ...other };
    delete output.required;
  }
  return output as Tool['outputSchema'];
}

/** The structured content of a text answer: where the answer is, and in which form it was asked for. */
const ANSWERED_AS = 'answeredAs';
const TEXT_ANSWER_SCHEMA = {
  type: 'string',
  enum: ['xml', 'jsonp', 'text'],
  description: 'Only when the answer is text (output xml, or a callback): it is the text content, as sent',
};

/**
 * A text answer's result gets its structured content: the form asked for (E5: `output: xml`, or a callback), or
 * `text` for text that came when neither was asked for.
 */
function withTextAnswerContent(outcome: ToolOutcome, args: Record<string, unknown> | undefined): ToolOutcome {
  if (outcome.kind !== 'result' || outcome.result.isError || outcome.result.structuredContent) return outcome;
  const answeredAs = args?.output === 'xml' ? 'xml' : typeof args?.callback === 'string' ? 'jsonp' : 'text';
  return { ...outcome, result: { ...outcome.result, structuredContent: { [ANSWERED_AS]: answeredAs } } };
}

/** Catalogue entry -> tool handler: every operation runs through the one pipeline. */
export function catalogueTool(op: AnyOperation, definition: Tool, frame: CallFrame): ToolHandler {
  return {
    definition: decorate(op).notSent.has('region')
      ? withRegionDefault(definition, frame.deps.config.streamingRegion)
      : definition,
    facts: { name: op.name, readOnly: op.annotations.readOnlyHint, services: [op.service] },
    call: decorate(op).answersText
      ? async (args, hooks) => withTextAnswerContent(await callOperation(op, args, frame, hooks), args)
      : (args, hooks) => callOperation(op, args, frame, hooks),
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
