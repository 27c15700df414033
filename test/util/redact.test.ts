/**
 * Secrets however an upstream echoes them (issue 13, item 3): plain, in any case, JSON-escaped, \u-escaped,
 * URL-encoded, base64, of any length; and the value after a credential header's name, whatever it is.
 */
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/util/redact.js';

const SECRET = 'gw-secret/7Hq+2"x';
const r = new Redactor([SECRET], ['x-svc-apigw-signature-v2', 'x-svc-apigw-api-key']);
const unicodeEscaped = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('Redactor', () => {
  it.each([
    ['as is', SECRET],
    ['JSON-escaped', JSON.stringify(SECRET).slice(1, -1)],
    ['\\u-escaped', unicodeEscaped(SECRET)],
    ['\\u-escaped in upper-case hex', unicodeEscaped(SECRET).toUpperCase()],
    ['partly \\u-escaped', `gw-secret\\u002f7Hq+2\\"x`],
    ['URL-encoded', encodeURIComponent(SECRET)],
    ['upper-cased', SECRET.toUpperCase()],
    ['base64', Buffer.from(SECRET).toString('base64').replace(/=+$/, '')],
    ['base64url', Buffer.from(SECRET).toString('base64url')],
  ])('finds it %s', (_, echoed) => {
    const text = `{"details":"echo: ${echoed} end"}`;
    expect(r.redact(text)).toBe('{"details":"echo: [redacted] end"}');
  });

  it('redacts secrets of any length', () => {
    expect(new Redactor(['k9']).redact('key k9 and K9')).toBe('key [redacted] and [redacted]');
  });

  it('replaces the value of a credential header by name, and leaves other headers alone', () => {
    const text = '{"x-svc-apigw-signature-v2": "c2lnbmF0dXJl+/=", "x-svc-apigw-api-key-id": "client-1", X-SVC-APIGW-API-KEY=abc;}';
    expect(r.redact(text)).toBe('{"x-svc-apigw-signature-v2": "[redacted]", "x-svc-apigw-api-key-id": "client-1", X-SVC-APIGW-API-KEY=[redacted];}');
  });

  it('knows more secrets when asked, without losing its own', () => {
    const wider = r.with(['per-call-signature']);
    expect(wider.redact(`${SECRET} per-call-signature`)).toBe('[redacted] [redacted]');
    expect(r.redact('per-call-signature')).toBe('per-call-signature');
  });
});

it('leaves a value it already redacted as it is (redacting twice changes nothing)', () => {
  const once = r.redact(`{"x-svc-apigw-signature-v2":"abc","echo":"${SECRET}"}`);
  expect(r.redact(once)).toBe(once);
  expect(once).toBe('{"x-svc-apigw-signature-v2":"[redacted]","echo":"[redacted]"}');
});
