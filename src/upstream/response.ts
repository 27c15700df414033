import type { AnswerForm, CompiledOperation } from '../catalogue/compile.js';
import type { Answer, AnyOperation } from '../catalogue/types.js';
import { nextTurn } from '../util/next-turn.js';
import { decodeAnswer } from './answer-decode.js';
import { checkEnvelope } from './answer-envelope.js';
import { parseAnswer } from './answer-parse.js';
import type { RawResponse } from './http.js';
import { readAgainstPlan } from './read-answer.js';

/**
 * Turns an upstream answer into the operation's typed answer, or throws the CallFailure that explains it: a straight
 * chain of stages, each a file that builds the failures it finds: decode (the form asked for: JSON, JSONP inside the
 * `callback` asked for, XML with its status), parse (in slices), envelope (the status, the error bodies, the success
 * code), read against the compiled plan. Pure but for `pause`, awaited between slices of a large answer's work. A
 * tolerant reader: nulls, missing optional fields, extra fields and values of another type than the spec's never
 * fail a call; an answer without what a success of the operation carries (the required members of its output schema,
 * and its envelope's success code) always does, and says so. Of a long list only the first `keepItems` items are
 * kept; the answer says which lists were cut and how long they were.
 */
export async function interpretResponse<Op extends AnyOperation>(
  operation: CompiledOperation<Op>,
  res: RawResponse,
  asked: AnswerForm = 'json',
  pause: () => Promise<void> = nextTurn,
  { keepItems = Infinity, callback }: { keepItems?: number; callback?: string } = {},
): Promise<Answer<Op>> {
  const decoded = decodeAnswer(operation, res, asked, callback);
  const body = await parseAnswer(decoded, res, pause, keepItems);
  const enveloped = checkEnvelope(operation, res, body);
  return readAgainstPlan(operation, res, enveloped, pause);
}
