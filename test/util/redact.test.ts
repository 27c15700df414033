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

  it('replaces header values in text that also holds escapes (read through the decoded view)', () => {
    const text = '50%25 caf\\u00e9 X-SVC-APIGW-SIGNATURE-V2: c2ln+/= ok';
    expect(r.redact(text)).toBe('50%25 caf\\u00e9 X-SVC-APIGW-SIGNATURE-V2: [redacted] ok');
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

describe('Redactor, spellings mixed within one echo and around other text', () => {
  const secret = 'Ünïcode Kéy/🔑+비밀';
  const redactor = new Redactor([secret]);
  const percent = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  const jsonUnicode = (s: string) => Array.from({ length: s.length }, (_, i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

  it.each([
    ['as is', secret],
    ['upper-cased', secret.toUpperCase()],
    ['every character percent-encoded (UTF-8)', percent(secret)],
    ['URL form encoding (a space as +)', encodeURIComponent(secret).replaceAll('%20', '+')],
    ['\\u-escaped, the emoji as a surrogate pair', jsonUnicode(secret)],
    ['each character spelled another way', `${percent('Ü')}N${jsonUnicode('ï')}code+K\\u00e9Y\\/${jsonUnicode('🔑')}%2B${percent('비')}밀`],
  ])('finds a non-ASCII secret %s, keeping the text around it exactly', (_, echoed) => {
    const before = 'İstanbul %zz 50% \\n "quoted" ';
    expect(redactor.redact(`${before}${echoed} after`)).toBe(`${before}[redacted] after`);
  });

  it('replaces a secret that contains another whole, and secrets side by side each', () => {
    const nested = new Redactor(['abc', 'xxabcxx']);
    expect(nested.redact('1 xxabcxx 2 abc 3')).toBe('1 [redacted] 2 [redacted] 3');
    expect(nested.redact('abcabc')).toBe('[redacted][redacted]');
    expect(new Redactor(['aa']).redact('aaa')).toBe('[redacted]');
  });

  it('leaves text without a secret exactly as it was, escapes included', () => {
    const text = 'Caf\\u00e9 %E2%82%AC %zz %C3 İİ \\"x\\" + end';
    expect(redactor.redact(text)).toBe(text);
  });

  it('costs little per call: a thousand redactors with a new secret each (a signature) redact 1 KB in well under a second', () => {
    const base = new Redactor(['gw-secret-7Hq2LmX9vB4nR8tK', 'generic-client-secret-Pz6Wq3Ys', 'studio-api-key-Nf4Gh7Tr2Bc9'], ['x-svc-apigw-signature-v2']);
    const text = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ name: `item ${i}`, url: `https:\\/\\/example.com\\/${i}` })) });
    const started = performance.now();
    for (let i = 0; i < 1000; i++) base.with([Buffer.from(`signature-${i}`).toString('base64')]).redact(text);
    // Building a regular expression of every spelling took some 5 ms per secret: 1000 calls, over 10 s.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
