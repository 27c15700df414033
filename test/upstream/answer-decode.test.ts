import { describe, expect, it } from 'vitest';
import { listProducts } from '../../src/catalogue/apigateway.js';
import { reverseGeocode } from '../../src/catalogue/maps.js';
import { decodeAnswer } from '../../src/upstream/answer-decode.js';
import { compiled } from '../helpers/attempts.js';

const answer = (text: string, contentType = 'text/plain') => ({ status: 200, contentType, text });

describe('decodeAnswer: the body in the form it was asked in', () => {
  it('has nothing to try in an empty body', () => {
    expect(decodeAnswer(compiled(reverseGeocode), answer(' \n', 'application/json'), 'xml', undefined)).toEqual({
      tries: [],
      otherwise: { kind: 'empty' },
    });
  });

  it('tries JSON only when it looks like JSON, and names the content type when it does not', () => {
    const html = answer('<html>Sign in</html>', 'text/html');
    expect(decodeAnswer(compiled(listProducts), html, 'json', undefined)).toEqual({
      tries: [],
      otherwise: { kind: 'malformed', reason: 'content type "text/html"', expected: 'valid JSON' },
    });
    const labelled = answer('[1]');
    expect(decodeAnswer(compiled(listProducts), labelled, 'json', undefined).tries).toEqual([
      { json: '[1]', jsonp: false, expected: 'valid JSON' },
    ]);
  });

  it('tries the body as it came, then what its callback wraps', () => {
    const text = 'cb({"status":{"code":0}});';
    expect(decodeAnswer(compiled(reverseGeocode), answer(text, 'application/json'), 'jsonp', 'cb').tries).toEqual([
      { json: text, jsonp: false, expected: 'valid JSON' },
      { json: '{"status":{"code":0}}', jsonp: true, expected: 'JSONP of valid JSON' },
    ]);
  });

  it('tries nothing inside another callback than the one asked for, and says which came', () => {
    const decoded = decodeAnswer(compiled(reverseGeocode), answer('<b>other</b>({})'), 'jsonp', 'mine');
    expect(decoded).toEqual({
      tries: [],
      otherwise: {
        kind: 'malformed',
        reason: 'wrapped in other(...) where mine(...) was asked for',
        expected: 'JSONP of the callback mine',
        final: true,
      },
    });
  });

  it('reads the status of XML asked for, and only of that', () => {
    const xml = answer('<response><status><code>3</code><name>no results</name></status></response>');
    expect(decodeAnswer(compiled(reverseGeocode), xml, 'xml', undefined).otherwise).toEqual({
      kind: 'text',
      status: { code: '3', name: 'no results' },
    });
    expect(decodeAnswer(compiled(reverseGeocode), xml, 'jsonp', undefined).otherwise).toEqual({
      kind: 'malformed',
      reason: 'not callback(...)',
      expected: 'JSONP',
      final: true,
    });
    expect(decodeAnswer(compiled(reverseGeocode), xml, 'json', undefined).otherwise.kind).toBe('malformed');
  });
});
