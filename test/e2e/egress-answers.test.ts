/**
 * Through the built server (stdio) against a recording upstream. Issue 33, item 1: answers that hold no secret come
 * back unchanged, documentation of the platform's own headers included, for the translation and text-generation
 * tools. Issue 32: a configured key echoed in the forms of H1 and L1 reaches the client in none of them; the call's
 * own signature neither, in the body, nor quoted from the upstream's Content-Type or Content-Encoding (L5).
 */
import { describe, expect, it } from 'vitest';
import { recordedStdio } from '../helpers/recorded-stdio.js';
import type { RecordedRequest } from '../helpers/recording-server.js';
import { textOf } from '../helpers/spawn-server.js';
import { FORMS } from '../helpers/spellings.js';
import { CREDENTIALS, fullEnv } from '../helpers/upstream.js';

const DOCUMENTATION = [
  'curl -H "X-SVC-APIGW-API-KEY: $API_KEY" https://example.com/api/v1/products',
  '(X-SVC-APIGW-API-KEY: <your key>)',
  "{'x-svc-apigw-signature-v2': signature}",
  'x-svc-apigw-signature-v2: c2lnbmF0dXJl+/= and X-SVC-STUDIO-API-KEY=abc;',
];
const translated = (text: string) => ({
  message: { result: { srcLangType: 'ko', tarLangType: 'en', translatedText: text } },
});
const translatedText = (result: { structuredContent?: unknown }) =>
  (result.structuredContent as { message: { result: { translatedText: string } } }).message.result.translatedText;
const signatureOf = (req: RecordedRequest) => String(req.headers['x-svc-apigw-signature-v2']);

const recorded = recordedStdio(fullEnv, { resetEachTest: false });

describe('an answer without a secret comes back as it was (issue 33, item 1)', () => {
  it.each(DOCUMENTATION)('translation: %s', async (text) => {
    recorded.upstream.reply({ body: translated(text) });
    const result = await recorded.server.call('translation_translate_text', {
      source: 'ko',
      target: 'en',
      text: '안녕하세요',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(translatedText(result)).toBe(text);
  });

  it.each(DOCUMENTATION)('text generation: %s', async (text) => {
    recorded.upstream.reply({ body: { status: { code: '20000', message: 'OK' }, result: { text } } });
    const result = await recorded.server.call('textgen_create_completion', { text: 'Once upon a time' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(JSON.stringify(result)).toContain(JSON.stringify(text).slice(1, -1));
  });
});

describe('the workflow takes documentation through both steps unchanged (issue 33, item 1)', () => {
  it.each(DOCUMENTATION)('translate_and_summarize: %s', async (text) => {
    recorded.upstream.reset();
    recorded.upstream.setFallback((req) =>
      req.url.startsWith('/nmt/')
        ? { body: translated(text) }
        : { body: { status: { code: '20000', message: 'OK' }, result: { text } } },
    );
    const result = await recorded.server.call('translate_and_summarize', {
      text: 'Hello. Thank you.',
      target: 'ko',
      source: 'en',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const out = result.structuredContent as { translation: string; summary: string };
    expect(out.translation).toBe(text);
    expect(out.summary).toBe(text);
  });
});

describe('a configured key in the forms of issue 32 reaches the client in none of them', () => {
  const key = CREDENTIALS.SVC_TRANSLATION_CLIENT_SECRET;
  it.each(FORMS.map((form) => [form.name, form.spell(key, 1)]))('%s', async (_, spelled) => {
    recorded.upstream.reply({ body: translated(`echo: ${spelled} end`) });
    const result = await recorded.server.call('translation_translate_text', {
      source: 'ko',
      target: 'en',
      text: '안녕하세요',
    });
    const said = translatedText(result);
    expect(said).toContain('[redacted]');
    expect(said.startsWith('echo: ')).toBe(true);
    expect(said.endsWith(' end')).toBe(true);
    expect(JSON.stringify(result)).not.toContain(JSON.stringify(spelled).slice(1, -1));
  });
});

describe("the call's own signature leaves by no upstream value (L5)", () => {
  let signatures: string[] = [];
  const call = async () => {
    const result = await recorded.server.call('apigateway_list_products', {});
    signatures = recorded.upstream.requests.filter((r) => r.url.startsWith('/api/v1/products')).map(signatureOf);
    return JSON.stringify(result);
  };
  const expectNone = (said: string) => {
    expect(signatures.length).toBeGreaterThan(0);
    for (const signature of signatures) {
      expect(said).not.toContain(signature);
      expect(said).not.toContain(JSON.stringify(signature).slice(1, -1));
      expect(said).not.toContain([...Buffer.from(signature)].join(' '));
    }
  };

  it('quoted from the Content-Type of an answer that is not JSON', async () => {
    recorded.upstream.reset();
    recorded.upstream.setFallback((req) => ({
      headers: { 'content-type': `text/html; echo=${signatureOf(req)}` },
      body: '<html>login</html>',
    }));
    const said = await call();
    expect(said).toMatch(/content type/);
    expectNone(said);
  });

  it('quoted from the Content-Encoding of an answer that is not UTF-8', async () => {
    recorded.upstream.reset();
    recorded.upstream.setFallback((req) => ({
      headers: { 'content-type': 'application/json', 'content-encoding': `br; echo=${signatureOf(req)}` },
      body: Buffer.from([0xff, 0xfe, 0x00, 0x81, 0xc3]),
    }));
    const said = await call();
    expect(said).toMatch(/Content-Encoding/);
    expectNone(said);
  });

  it.each(FORMS.slice(0, 8).map((form) => [form.name, form]))('echoed in an error body as %s', async (_, form) => {
    recorded.upstream.reset();
    recorded.upstream.setFallback((req) => ({
      status: 400,
      headers: { 'content-type': 'text/plain' },
      body: `bad request: ${form.spell(signatureOf(req), 2)} end`,
    }));
    const said = await call();
    expect(said).toMatch(/HTTP 400/);
    expectNone(said);
    for (const signature of signatures) expect(said).not.toContain(form.spell(signature, 2));
  });
});
