import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { asToolFailure, type ToolFailure } from '../gateway/errors.js';
import type { CallRecord } from '../gateway/executor.js';
import { redact } from './redact.js';
import { errorResult } from './tool-registry.js';

export interface CallLog {
  (entry: { tool: string; outcome: string; durationMs: number; attempts: number; httpStatus?: number }): void;
}

export interface CallContext {
  tool: string;
  now(): number;
  secrets: readonly string[];
  log: CallLog;
}

/**
 * The frame of every tool call: times it, turns any failure into an error result (`describe` words it), keeps
 * secrets out of whatever is returned, and logs one line without argument values.
 */
export async function runToolCall(
  ctx: CallContext,
  run: (record: CallRecord) => Promise<CallToolResult>,
  describe: (failure: ToolFailure) => string = (f) => `${ctx.tool} failed [${f.code}]: ${f.message}`,
): Promise<CallToolResult> {
  const started = ctx.now();
  const record: CallRecord = { attempts: 0 };
  let result: CallToolResult;
  let outcome = 'ok';
  try {
    result = await run(record);
  } catch (error) {
    const failure = asToolFailure(error);
    outcome = failure.code;
    result = errorResult(redact(describe(failure), ctx.secrets));
  }
  ctx.log({ tool: ctx.tool, outcome, durationMs: ctx.now() - started, attempts: record.attempts, httpStatus: record.status });
  return result;
}

/** A JSON result: structured content and the same JSON as text, with any secret redacted from both. */
export function jsonResult(value: object, secrets: readonly string[]): CallToolResult {
  const text = JSON.stringify(value);
  const clean = redact(text, secrets);
  return {
    content: [{ type: 'text', text: clean }],
    structuredContent: (clean === text ? value : JSON.parse(clean)) as Record<string, unknown>,
  };
}

/** A text result (XML, JSONP), with any secret redacted. */
export function textResult(text: string, secrets: readonly string[]): CallToolResult {
  return { content: [{ type: 'text', text: redact(text, secrets) }] };
}
