import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolFailure, type CallMeta } from '../gateway/errors.js';
import { redact } from './redact.js';
import { errorResult } from './tool-registry.js';

export interface CallLog {
  (entry: { tool: string; outcome: string; durationMs: number; attempts: number; httpStatus?: number }): void;
}

/** What every tool call shares: the clock, the secrets to keep out of results, the log. */
export interface CallFrame {
  now(): number;
  secrets: readonly string[];
  log: CallLog;
}

/** A finished call: its result, and what happened on the wire (absent when nothing was sent). */
export interface Completed {
  result: CallToolResult;
  meta?: CallMeta;
}

/**
 * The frame of every tool call: times it, turns any failure into an error result (`describe` words it), keeps
 * secrets out of whatever is returned, and logs one line without argument values.
 */
export async function runToolCall(
  frame: CallFrame,
  tool: string,
  run: () => Promise<Completed>,
  describe: (failure: ToolFailure) => string = (f) => `${tool} failed [${f.code}]: ${f.message}`,
): Promise<CallToolResult> {
  const started = frame.now();
  let completed: Completed;
  let outcome = 'ok';
  try {
    completed = await run();
  } catch (error) {
    const failure = ToolFailure.from(error);
    outcome = failure.code;
    completed = { result: errorResult(redact(describe(failure), frame.secrets)), meta: failure.meta };
  }
  const { meta } = completed;
  frame.log({ tool, outcome, durationMs: frame.now() - started, attempts: meta?.attempts ?? 0, httpStatus: meta?.status });
  return completed.result;
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
