import type { Decoded } from './answer-decode.js';
import { snippet } from './answer-words.js';
import { CallFailure } from '../failures.js';
import type { RawResponse } from './http.js';
import { parseJsonInSlices, TooDeep, type CountedList } from './sliced-json.js';
import type { XmlStatus } from './xml-status.js';

/**
 * What an answer's body is once parsed: JSON (JSONP's included), text (E5's XML, with its status when one is found),
 * or nothing (an empty body).
 */
export type Body =
  | { kind: 'json'; value: unknown; jsonp: boolean; counted: CountedList[] }
  | { kind: 'text'; status?: XmlStatus }
  | { kind: 'empty' };

/**
 * The second stage of an answer's chain: the decoded JSON parsed, the first that parses, in slices with the event
 * loop free between them (sliced-json.ts); of a long list only the first `keepItems` items are kept. A success (2xx)
 * that is none of the forms asked for fails here, said as such; a refusal's body is the text it is, for its status
 * says what matters (the envelope stage).
 */
export async function parseAnswer(
  decoded: Decoded,
  res: RawResponse,
  pause: () => Promise<void>,
  keepItems: number,
): Promise<Body> {
  const success = res.status >= 200 && res.status < 300;
  let failed: { reason: string; expected: string } | undefined;
  for (const tried of decoded.tries) {
    try {
      return { kind: 'json', ...(await parseJsonInSlices(tried.json, pause, keepItems)), jsonp: tried.jsonp };
    } catch (error) {
      // JSON this server cannot carry is said as such, not as broken JSON (for a write answered 2xx, the exchange adds
      // that the upstream accepted it); a refusal's is read as the text it is: its status says what matters.
      if (error instanceof TooDeep && success) {
        throw new CallFailure('malformed_response', `upstream answered HTTP ${res.status} with JSON ${error.message}`, {
          httpStatus: res.status,
        });
      }
      failed = { reason: (error as Error).message, expected: tried.expected };
    }
  }
  const { otherwise } = decoded;
  if (otherwise.kind !== 'malformed') return otherwise;
  if (!success) return { kind: 'text' };
  const why = otherwise.final || !failed ? otherwise : failed;
  throw new CallFailure(
    'malformed_response',
    `upstream answered HTTP ${res.status} with a body that is not ${why.expected} (${why.reason}): ${snippet(res.text)}`,
    { httpStatus: res.status },
  );
}
