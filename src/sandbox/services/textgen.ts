import { TEXTGEN_MODEL, createCompletion } from '../../catalogue/textgen.js';
import { SIMULATED_KEY } from '../../catalogue/simulated.js';
import { HEADER } from '../../upstream/index.js';
import { routeOf } from '../route-of.js';
import type { Route, SandboxRequest, SandboxResponse } from '../types.js';
import { STUDIO_STATUS, studioError } from '../textgen/errors.js';
import { scoreAiFilters } from '../textgen/filters.js';
import { generate } from '../textgen/generator.js';
import { parseCompletionParams } from '../textgen/params.js';
import { tokenize } from '../textgen/tokenizer.js';

/** What every completion of the sandbox says of itself, in `result.simulated`. */
const SIMULATED =
  'Simulated by the sandbox, not a language model: filler sentences from a small fixed grammar (for a summary ' +
  'prompt, the first sentences of its text), whatever the prompt asks; stopReason end_token means the filler ran out.';

/** The one model the simulated service offers: the spec's sample model (any other name is sent, and answered 404). */
const MODELS: readonly string[] = [TEXTGEN_MODEL];

/**
 * E12, completions: `POST /testapp/v1/completions/:model` with the studio keys (checked by http-server.ts before
 * the handler runs).
 * Status codes in textgen/errors.ts. Stateless and deterministic: the same request gives the same answer.
 */
export function textgenRoutes(): Route[] {
  return [routeOf(createCompletion, complete)];
}

function complete(req: SandboxRequest): SandboxResponse {
  const requestId = header(req, HEADER.studioRequestId);
  const withRequestId = (response: SandboxResponse): SandboxResponse =>
    requestId === undefined
      ? response
      : { ...response, headers: { ...response.headers, [HEADER.studioRequestId]: requestId } };
  try {
    return withRequestId(answer(req));
  } catch (error) {
    return withRequestId(studioError(STUDIO_STATUS.internal, `sandbox error: ${(error as Error).message}`));
  }
}

function answer(req: SandboxRequest): SandboxResponse {
  const model = req.params.model ?? '';
  if (!MODELS.includes(model))
    return studioError(STUDIO_STATUS.notFound, `model '${model}' does not exist; available: ${MODELS.join(', ')}`);

  // The spec requires Content-Type: application/json; a body sent as anything else is refused.
  const contentType = header(req, 'content-type');
  if (contentType !== undefined && !/^application\/json\b/i.test(contentType.trim()))
    return studioError(STUDIO_STATUS.badRequest, `Content-Type must be application/json, not '${contentType}'`);

  const parsed = parseCompletionParams(req.body);
  if (!parsed.ok) return studioError(STUDIO_STATUS.badRequest, parsed.message);
  const p = parsed.params;

  const prompt = p.text + p.start;
  const inputTokens = tokenize(prompt);
  const generation = generate({
    prompt,
    maxTokens: p.maxTokens,
    temperature: p.temperature,
    topK: p.topK,
    topP: p.topP,
    repeatPenalty: p.repeatPenalty,
    stopBefore: p.stopBefore,
  });
  const text = prompt + generation.text + p.restart;

  const result: Record<string, unknown> = {
    text,
    // Not a field of the spec: a client (and the model behind it) sees in the data, not only in the words, that no
    // model wrote this. Unlisted fields pass through the tool's answer.
    [SIMULATED_KEY]: SIMULATED,
    stopReason: generation.stopReason,
    inputLength: inputTokens.length,
    outputLength: generation.tokens.length,
  };
  if (p.includeTokens) {
    result.inputTokens = inputTokens;
    result.outputTokens = generation.tokens;
    result.probs = generation.probs;
  }
  if (p.includeAiFilters) result.aiFilters = scoreAiFilters(text);

  return {
    status: STUDIO_STATUS.ok.http,
    contentType: 'application/json',
    json: { status: { code: STUDIO_STATUS.ok.code, message: STUDIO_STATUS.ok.message }, result },
  };
}

function header(req: SandboxRequest, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
