import type { Tool } from '@modelcontextprotocol/server';
import { callOperation, type CallFrame, type ToolOutcome } from '../call/pipeline.js';
import { ANSWERED_AS, TEXT_FORMS } from '../call/render.js';
import { dryRunOutput } from '../call/dry-run.js';
import { compileOperation, type CompiledOperation } from '../catalogue/compile.js';
import { confirmationWords } from '../catalogue/confirmation-words.js';
import { DEFAULT_STREAMING_REGION, regionDescription, type StreamingRegion } from '../catalogue/fields.js';
import type { AnyOperation } from '../catalogue/types.js';
import { serviceIcons } from './icons.js';
import { SANDBOX_FAKES } from './sandbox-words.js';
import { toJsonSchema } from './json-schema.js';
import type { ToolHandler } from './tool-handler.js';

/**
 * The MCP definition of an operation. Pure. The spec's arguments, plus `dryRun` and `confirm` where they apply.
 * A tool that takes `dryRun` may answer with the request instead of the upstream's answer, and one that may answer
 * text (E5's XML or JSONP) answers it as text content with `{answeredAs}` as its structured content (MCP requires
 * structured content wherever an output schema is declared): the output schema of either lists that member too and
 * requires nothing.
 */
export function toolDefinition(op: AnyOperation): Tool {
  const operation = compileOperation(op, { defaultRegion: DEFAULT_STREAMING_REGION });
  const input = toJsonSchema(op.input, 'input');
  input.properties = { ...(input.properties as object), ...safetyProperties(operation) };
  return {
    name: op.name,
    title: op.title,
    description: operation.confirmation
      ? `${op.description} ${confirmationWords(operation.confirmation.field)}`
      : op.description,
    inputSchema: input as Tool['inputSchema'],
    outputSchema: outputSchema(operation),
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
  const other = {
    ...(operation.addedArguments.dryRun ? { dryRun: toJsonSchema(dryRunOutput(), 'output') } : {}),
    ...(operation.answersText ? { [ANSWERED_AS]: TEXT_ANSWER_SCHEMA } : {}),
  };
  if (Object.keys(other).length > 0) {
    output.properties = { ...(output.properties as object), ...other };
    delete output.required;
  }
  return output as Tool['outputSchema'];
}

/** The structured content of a text answer (call/render.ts): in which form it was asked for. */
const TEXT_ANSWER_SCHEMA = {
  type: 'string',
  enum: [...TEXT_FORMS],
  description: 'Only when the answer is text (output xml, or a callback): it is the text content, as sent',
};

/**
 * A compiled operation as a tool: every call runs through the one pipeline. On the sandbox, the description of a tool
 * whose answers the sandbox fakes says so in a few words (the instructions say more).
 */
export function catalogueTool(
  operation: CompiledOperation,
  definition: Tool,
  frame: CallFrame,
  { defaultRegion, sandbox }: { defaultRegion: StreamingRegion; sandbox: boolean },
): ToolHandler {
  const fake = sandbox ? SANDBOX_FAKES[operation.service] : undefined;
  const described = fake ? { ...definition, description: `${definition.description} ${fake.brief}` } : definition;
  return {
    definition: operation.notSent.has('region') ? withRegionDefault(described, defaultRegion) : described,
    facts: { name: operation.name, readOnly: operation.effect === 'read', services: [operation.service] },
    call: async (args, ctx) => withNote(await callOperation(operation, args, frame, ctx), operation, args, frame),
  };
}

/**
 * The entry's answer note (catalogue `answerNote`), as a text item after the answer, when the call succeeded with JSON
 * and the note still fits within SVC_MAX_RESULT_BYTES: a note is a sentence, and an answer that leaves no room for it
 * goes alone. Added here, after the render stage, so that the pipeline stays the same for every tool.
 */
function withNote(
  outcome: ToolOutcome,
  operation: CompiledOperation,
  args: Record<string, unknown> | undefined,
  frame: CallFrame,
): ToolOutcome {
  if (outcome.kind !== 'result') return outcome;
  const { result } = outcome;
  const answer = result.structuredContent;
  if (result.isError || !answer || 'dryRun' in answer || ANSWERED_AS in answer) return outcome;
  const note = operation.note(args ?? {}, answer);
  if (note === undefined) return outcome;
  const size = [JSON.stringify(answer), note, ...result.content.map((c) => c.text)].reduce((n, t) => n + bytes(t), 0);
  if (size > frame.maxResultBytes) return outcome;
  return { kind: 'result', result: { ...result, content: [...result.content, { type: 'text', text: note }] } };
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

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
