import { describe, expect, it } from 'vitest';
import { parseAnswer } from '../../src/upstream/answer-parse.js';
import type { Decoded } from '../../src/upstream/answer-decode.js';
import { CallFailure } from '../../src/failures.js';
import { MAX_NESTING } from '../../src/upstream/sliced-json.js';

const pause = () => Promise.resolve();
const res = (status: number, text: string) => ({ status, contentType: 'application/json', text });
const tries = (...texts: string[]) =>
  texts.map((json, i) => ({ json, jsonp: i > 0, expected: i > 0 ? 'JSONP of valid JSON' : 'valid JSON' }));
const malformed = { kind: 'malformed', reason: 'content type "text/plain"', expected: 'valid JSON' } as const;

async function failure(decoded: Decoded, status: number, text: string): Promise<CallFailure> {
  try {
    await parseAnswer(decoded, res(status, text), pause, Infinity);
  } catch (error) {
    expect(error).toBeInstanceOf(CallFailure);
    return error as CallFailure;
  }
  throw new Error('expected a failure');
}

describe('parseAnswer: the first JSON that parses', () => {
  it('takes the first try that parses, and says whether it was JSONP', async () => {
    const decoded = { tries: tries('cb([1])', '[1]'), otherwise: malformed };
    expect(await parseAnswer(decoded, res(200, 'cb([1])'), pause, Infinity)).toEqual({
      kind: 'json',
      value: [1],
      jsonp: true,
      counted: [],
    });
  });

  it("says a success of no form asked for is malformed: the last parse's words, unless the form's are final", async () => {
    const broken = await failure({ tries: tries('{"a":'), otherwise: malformed }, 200, '{"a":');
    expect(broken.message).toMatch(
      /^upstream answered HTTP 200 with a body that is not valid JSON \((?!content type).+\): \{"a":$/,
    );
    const final = { ...malformed, reason: 'not callback(...)', expected: 'JSONP', final: true };
    expect((await failure({ tries: tries('{"a":'), otherwise: final }, 200, '{"a":')).message).toBe(
      'upstream answered HTTP 200 with a body that is not JSONP (not callback(...)): {"a":',
    );
    expect((await failure({ tries: [], otherwise: malformed }, 201, 'OK')).message).toBe(
      'upstream answered HTTP 201 with a body that is not valid JSON (content type "text/plain"): OK',
    );
  });

  it("reads a refusal's body of no form, or too deep, as the text it is: its status says what matters", async () => {
    const deep = '['.repeat(MAX_NESTING + 1) + ']'.repeat(MAX_NESTING + 1);
    for (const text of ['<html>busy</html>', deep]) {
      const decoded = { tries: tries(text), otherwise: malformed };
      expect(await parseAnswer(decoded, res(503, text), pause, Infinity)).toEqual({ kind: 'text' });
    }
    const tooDeep = await failure({ tries: tries(deep), otherwise: malformed }, 200, deep);
    expect([tooDeep.code, tooDeep.httpStatus]).toEqual(['malformed_response', 200]);
    expect(tooDeep.message).toMatch(/^upstream answered HTTP 200 with JSON /);
  });

  it('passes text and an empty body on as they were decoded', async () => {
    const text = { kind: 'text', status: { code: '0' } } as const;
    expect(await parseAnswer({ tries: [], otherwise: text }, res(200, '<r/>'), pause, Infinity)).toBe(text);
    expect(await parseAnswer({ tries: [], otherwise: { kind: 'empty' } }, res(200, ''), pause, Infinity)).toEqual({
      kind: 'empty',
    });
  });
});
