import type { AnswerForm, CompiledOperation } from '../catalogue/compile.js';
import { snippet } from './answer-words.js';
import type { RawResponse } from './http.js';
import { xmlStatus, type XmlStatus } from './xml-status.js';

/** JSON to parse, whether it is JSONP's (which passes as the text it came as), and what it must be to be read. */
interface JsonText {
  json: string;
  jsonp: boolean;
  expected: string;
}

/**
 * What the body is when none of its JSON parses: text (E5's XML, with its status when one is found), nothing (an
 * empty body), or malformed. A malformed body's `reason` is said as is when `final`; otherwise the last parse's
 * failure, when JSON was tried, says it better.
 */
type Unparsed =
  | { kind: 'text'; status?: XmlStatus }
  | { kind: 'empty' }
  | { kind: 'malformed'; reason: string; expected: string; final?: boolean };

/** The first stage of an answer's chain: the JSON to try, in order, and what the body is when none of it parses. */
export interface Decoded {
  tries: JsonText[];
  otherwise: Unparsed;
}

/**
 * The body in the form it was asked in: JSON (also read when XML or JSONP was asked and JSON came), JSONP
 * (`callback(JSON)` and nothing else, with the callback asked for), or XML as text with its status. A body of another
 * form than the one asked for is malformed: an HTML login page, `OK` as text/plain or a truncated JSON body is no
 * answer, whatever its status. An empty body has no form: its status, or what a success carries, says what it means.
 */
export function decodeAnswer(
  operation: CompiledOperation,
  res: RawResponse,
  asked: AnswerForm,
  callback: string | undefined,
): Decoded {
  if (res.text.trim() === '') return { tries: [], otherwise: { kind: 'empty' } };
  const looksJson = /\bjson\b/i.test(res.contentType) || /^\s*[[{]/.test(res.text);
  const textual = operation.answersText && asked !== 'json';
  const jsonp = textual && asked === 'jsonp' ? jsonpContent(res.text) : undefined;
  // Another name is another page's answer (a cache, a proxy), whatever it holds.
  const otherCallback = jsonp !== undefined && callback !== undefined && jsonp.callback !== callback;
  // The JSON to try, in order: the body as it came, then (JSONP asked) inside its callback; parsed at one place.
  const tries = [
    ...(looksJson ? [{ json: res.text, jsonp: false, expected: 'valid JSON' }] : []),
    ...(jsonp && !otherCallback ? [{ json: jsonp.json, jsonp: true, expected: 'JSONP of valid JSON' }] : []),
  ];
  const byType: Unparsed = {
    kind: 'malformed',
    reason: `content type "${res.contentType || 'none'}"`,
    expected: 'valid JSON',
  };
  if (!textual) return { tries, otherwise: byType };
  if (jsonp === undefined && asked === 'jsonp') {
    return { tries, otherwise: { kind: 'malformed', reason: 'not callback(...)', expected: 'JSONP', final: true } };
  }
  if (jsonp !== undefined && otherCallback) {
    const came = `wrapped in ${snippet(jsonp.callback, 100)}(...) where ${callback}(...) was asked for`;
    const expected = `JSONP of the callback ${callback}`;
    return { tries, otherwise: { kind: 'malformed', reason: came, expected, final: true } };
  }
  if (asked === 'jsonp') return { tries, otherwise: byType };
  // XML asked: its status is read here, in one pass over the text, though JSON may yet come instead and parse.
  return { tries, otherwise: { kind: 'text', status: xmlStatus(res.text) } };
}

/**
 * The callback name and the JSON inside a JSONP answer (`cb({...})`, `/**\/ cb({...});`), or undefined when the text
 * is not one. Linear in the text: no backtracking regex over the body.
 */
function jsonpContent(text: string): { callback: string; json: string } | undefined {
  const head = /^\s*(?:\/\*\*\/\s*)?([^\s()]{1,100})\s*\(/.exec(text.slice(0, 200));
  if (!head) return undefined;
  let end = text.trimEnd();
  if (end.endsWith(';')) end = end.slice(0, -1).trimEnd();
  if (!end.endsWith(')')) return undefined;
  return { callback: head[1]!, json: end.slice(head[0].length, -1) };
}
