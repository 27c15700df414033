import type { Dispatcher } from 'undici';
import { Calls } from '../../src/call/admission.js';
import type { CallFrame } from '../../src/call/pipeline.js';
import { createCompletion } from '../../src/catalogue/textgen.js';
import { translateText } from '../../src/catalogue/translation.js';
import { SERVICES } from '../../src/catalogue/types.js';
import { parseCommand } from '../../src/config/index.js';
import { TOOL_DEFINITIONS } from '../../src/mcp/tool-definitions.js';
import { translateAndSummarizeTool } from '../../src/mcp/workflow-tool.js';
import { upstreamOf } from '../../src/upstream/http.js';
import { Redactor } from '../../src/util/redact.js';
import { compiled } from './attempts.js';
import { clientSettings } from '../../src/server.js';

/**
 * translate_and_summarize in process, as the server builds it: every service at `origin` through `dispatcher`, the
 * settings of `env`.
 */
export function workflowTool(options: {
  origin: string;
  dispatcher: Dispatcher;
  env: Record<string, string>;
  maxResultBytes?: number;
}) {
  const command = parseCommand([], options.env);
  if (command.kind !== 'serve') throw new Error('expected serve');
  const config = { ...command.config, serviceUrls: Object.fromEntries(SERVICES.map((s) => [s, options.origin])) };
  const deps = {
    settings: clientSettings(config),
    upstream: upstreamOf(options.dispatcher),
    now: () => Date.now(),
    requestId: () => 'r',
    random: () => 0.5,
  };
  const frame: CallFrame = {
    deps,
    calls: new Calls({ maxConcurrent: 4, maxQueued: 4 }),
    redactor: new Redactor([]),
    maxResultBytes: options.maxResultBytes ?? 100_000,
    log() {},
    confirmDestructive: true,
  };
  return translateAndSummarizeTool(TOOL_DEFINITIONS.translate_and_summarize!, frame, {
    translate: compiled(translateText),
    complete: compiled(createCompletion),
    timeoutMs: config.limits.workflowTimeoutMs,
  });
}
