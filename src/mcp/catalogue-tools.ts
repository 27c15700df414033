import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Operation } from '../catalogue/types.js';
import { asToolFailure } from '../gateway/errors.js';
import { execute, type CallRecord, type ExecutorDeps } from '../gateway/executor.js';
import { toJsonSchema } from './json-schema.js';
import { redact } from './redact.js';
import { errorResult, type ToolHandler } from './tool-registry.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

export interface CallLog {
  (entry: { tool: string; outcome: string; durationMs: number; attempts: number; httpStatus?: number }): void;
}

/** The MCP definition of an operation. Pure; computed once per process. */
export function toolDefinition(op: Operation): Tool {
  return {
    name: op.name,
    title: op.title,
    description: op.description,
    inputSchema: toJsonSchema(op.input, 'input') as Tool['inputSchema'],
    ...(op.output ? { outputSchema: toJsonSchema(op.output, 'output') as Tool['outputSchema'] } : {}),
    annotations: { ...op.annotations },
  };
}

/** Catalogue entry -> tool handler: every operation runs through the one executor. */
export function catalogueTool(
  op: Operation,
  definition: Tool,
  deps: ExecutorDeps,
  secrets: readonly string[],
  log: CallLog,
): ToolHandler {
  return {
    definition,
    async call(args, extra) {
      const started = deps.now();
      const record: CallRecord = { attempts: 0 };
      let result: CallToolResult;
      let outcome = 'ok';
      try {
        const answer = await execute(op, args, deps, extra.signal, record);
        result =
          answer.kind === 'text'
            ? { content: [{ type: 'text', text: redact(answer.value, secrets) }] }
            : jsonResult(answer.value, secrets);
      } catch (error) {
        const failure = asToolFailure(error);
        outcome = failure.code;
        result = errorResult(redact(`${op.name} failed [${failure.code}]: ${failure.message}`, secrets));
      }
      log({ tool: op.name, outcome, durationMs: deps.now() - started, attempts: record.attempts, httpStatus: record.status });
      return result;
    },
  };
}

function jsonResult(value: Record<string, unknown>, secrets: readonly string[]): CallToolResult {
  let text = JSON.stringify(value);
  let structured = value;
  const clean = redact(text, secrets);
  if (clean !== text) {
    text = clean;
    structured = JSON.parse(clean) as Record<string, unknown>;
  }
  return { content: [{ type: 'text', text }], structuredContent: structured };
}
