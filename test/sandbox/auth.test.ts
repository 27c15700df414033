import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthScheme } from '../../src/catalogue/types.js';
import { checkAuth } from '../../src/sandbox/auth-check.js';
import { SANDBOX_CREDENTIALS, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, gatewayErrorBody, signatureHeaders } from './sandbox-client.js';

describe('sandbox authentication', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('accepts a correctly signed request', async () => {
    const res = await call(sb, 'GET', '/CloudSearch/real/v1/tokenizer');
    expect(res.status).toBe(200);
  });

  it('covers the query string with the signature', async () => {
    const ok = await call(sb, 'GET', '/api/v1/products?limit=2&offset=1');
    expect(ok.status).toBe(200);
    // Signed for one query, sent with another.
    const res = await call(sb, 'GET', '/api/v1/products?limit=3', {
      auth: 'none',
      headers: signatureHeaders(sb, 'GET', '/api/v1/products?limit=2'),
    });
    expect(res.status).toBe(401);
  });

  it('refuses a bad signature with the gateway 401 body', async () => {
    const headers = {
      ...signatureHeaders(sb, 'GET', '/CloudSearch/real/v1/tokenizer'),
      'x-svc-apigw-signature-v2': 'AAAA',
    };
    const res = await call(sb, 'GET', '/CloudSearch/real/v1/tokenizer', { auth: 'none', headers });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({
      error: { errorCode: '200', message: 'Authentication Failed', details: 'signature mismatch' },
    });
  });

  it('refuses a signature made with another secret', async () => {
    const other = { ...sb, credentials: { ...sb.credentials, secretKey: 'not-the-secret' } };
    const res = await call(sb, 'GET', '/CloudSearch/real/v1/tokenizer', {
      auth: 'none',
      headers: signatureHeaders(other, 'GET', '/CloudSearch/real/v1/tokenizer'),
    });
    expect(res.status).toBe(401);
    expect(res.text).not.toContain('not-the-secret');
    expect(res.text).not.toContain(sb.credentials.secretKey);
  });

  it('refuses a timestamp six minutes old', async () => {
    const res = await call(sb, 'GET', '/CloudSearch/real/v1/tokenizer', { timestamp: Date.now() - 6 * 60 * 1000 });
    expect(res.status).toBe(401);
    expect(res.json).toEqual(gatewayErrorBody('200'));
    expect(res.text).toContain('five minutes');
  });

  it('refuses missing signature headers', async () => {
    const res = await call(sb, 'GET', '/api/v1/products', { auth: 'none' });
    expect(res.status).toBe(401);
    expect(res.json).toEqual(gatewayErrorBody('200'));
  });

  it('refuses a translation request without the application key pair', async () => {
    const body = { source: 'en', target: 'ko', text: 'Hello' };
    const missing = await call(sb, 'POST', '/nmt/v1/translation', { auth: 'none', body });
    expect(missing.status).toBe(401);
    expect(missing.json).toEqual(gatewayErrorBody('200'));
    const wrong = await call(sb, 'POST', '/nmt/v1/translation', {
      auth: 'none',
      body,
      headers: { 'X-SVC-APIGW-API-KEY-ID': sb.credentials.clientId, 'X-SVC-APIGW-API-KEY': 'wrong-secret' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain('wrong-secret');
    // A signature is not an application key pair.
    const signed = await call(sb, 'POST', '/nmt/v1/translation', { body });
    expect(signed.status).toBe(401);
  });

  it('passes the application key pair on to the translation service', async () => {
    const res = await call(sb, 'POST', '/nmt/v1/translation', {
      auth: 'app-key',
      body: { source: 'en', target: 'ko', text: 'Hello' },
    });
    expect(res.status).not.toBe(401);
  });

  it('checks the lower-case key pair of the maps service', async () => {
    const maps = await call(sb, 'GET', '/map-reversegeocode/v2/gc?coords=127.1054,37.3595&output=json', {
      auth: 'none',
    });
    expect(maps.status).toBe(401);
    expect(maps.json).toEqual(gatewayErrorBody('200'));
  });
});

describe('checkAuth', () => {
  const c = SANDBOX_CREDENTIALS;
  const check = (scheme: AuthScheme, headers: Record<string, string>) =>
    checkAuth(scheme, headers, 'POST', '/x', c, Date.now());

  it('accepts the text-generation keys and refuses either one wrong or missing', () => {
    const good = { 'x-svc-studio-api-key': c.studioApiKey, 'x-svc-apigw-api-key': c.studioGatewayKey };
    expect(check('studio', good)).toEqual({ ok: true });
    expect(check('studio', { ...good, 'x-svc-apigw-api-key': 'nope' })).toEqual({
      ok: false,
      reason: 'invalid gateway API key',
    });
    expect(check('studio', { 'x-svc-apigw-api-key': c.studioGatewayKey })).toMatchObject({ ok: false });
    // The application key pair is not a studio key pair.
    expect(
      check('studio', { 'x-svc-apigw-api-key-id': c.clientId, 'x-svc-apigw-api-key': c.clientSecret }),
    ).toMatchObject({ ok: false });
  });

  it('accepts the application key pair for both spellings and refuses a wrong secret', () => {
    const good = { 'x-svc-apigw-api-key-id': c.clientId, 'x-svc-apigw-api-key': c.clientSecret };
    expect(check('app-key-upper', good)).toEqual({ ok: true });
    expect(check('app-key-lower', good)).toEqual({ ok: true });
    const bad = check('app-key-lower', { ...good, 'x-svc-apigw-api-key': 'guess' });
    expect(bad).toEqual({ ok: false, reason: 'invalid client secret' });
  });
});

describe('sandbox clock', () => {
  it('judges the timestamp window by the injected clock', async () => {
    const fixed = Date.parse('2025-04-01T00:00:00Z');
    const sb = await startSandbox({ now: () => fixed });
    try {
      const fresh = await call(sb, 'GET', '/CloudSearch/real/v1/tokenizer', { timestamp: fixed - 4 * 60 * 1000 });
      expect(fresh.status).toBe(200);
      const stale = await call(sb, 'GET', '/CloudSearch/real/v1/tokenizer', { timestamp: fixed - 6 * 60 * 1000 });
      expect(stale.status).toBe(401);
      const future = await call(sb, 'GET', '/CloudSearch/real/v1/tokenizer', { timestamp: fixed + 6 * 60 * 1000 });
      expect(future.status).toBe(401);
    } finally {
      await sb.close();
    }
  });
});
