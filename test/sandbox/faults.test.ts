import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, gatewayErrorBody } from './sandbox-client.js';
import { waitFor } from '../helpers/spawn-http.js';

const TOKENIZER = '/CloudSearch/real/v1/tokenizer';

describe('sandbox faults', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterEach(() => sb.faults.clear());
  afterAll(() => sb.close());

  it('adds latency and then answers normally', async () => {
    sb.faults.set(`GET ${TOKENIZER}`, { latencyMs: 250 });
    const started = performance.now();
    const res = await call(sb, 'GET', TOKENIZER);
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    expect(res.status).toBe(200);
  });

  it('answers 429 with Retry-After', async () => {
    sb.faults.set(`GET ${TOKENIZER}`, { retryAfterSeconds: 3 });
    const res = await call(sb, 'GET', TOKENIZER);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.json).toEqual(gatewayErrorBody('420'));
  });

  it('answers a 5xx with the gateway body, or with a body of its own', async () => {
    sb.faults.set(`GET ${TOKENIZER}`, { status: 503 });
    const plain = await call(sb, 'GET', TOKENIZER);
    expect(plain.status).toBe(503);
    expect(plain.json).toEqual(gatewayErrorBody('500'));

    sb.faults.set(`GET ${TOKENIZER}`, { status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' });
    const html = await call(sb, 'GET', TOKENIZER);
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toBe('text/html');
    expect(html.text).toBe('<html>Bad Gateway</html>');
  });

  it('resets the connection without answering', async () => {
    sb.faults.set(`GET ${TOKENIZER}`, { reset: true });
    await expect(call(sb, 'GET', TOKENIZER)).rejects.toThrow();
  });

  it('answers 200 with truncated JSON', async () => {
    sb.faults.set(`GET ${TOKENIZER}`, { malformedJson: true });
    const res = await call(sb, 'GET', TOKENIZER);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(() => JSON.parse(res.text) as unknown).toThrow();
  });

  it('applies only to the next N requests when times is set', async () => {
    sb.faults.set(`GET ${TOKENIZER}`, { status: 500, times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(sb, 'GET', TOKENIZER)).status);
    expect(statuses).toEqual([500, 500, 200]);
  });

  it("targets one route, or every request with '*'", async () => {
    sb.faults.set('GET /api/v1/products', { status: 500 });
    expect((await call(sb, 'GET', TOKENIZER)).status).toBe(200);
    expect((await call(sb, 'GET', '/api/v1/products')).status).toBe(500);
    sb.faults.clear();
    sb.faults.set('*', { status: 504 });
    expect((await call(sb, 'GET', TOKENIZER)).status).toBe(504);
    expect((await call(sb, 'GET', '/no/such/path')).json).toEqual(gatewayErrorBody('510'));
    sb.faults.clear('*');
    expect((await call(sb, 'GET', TOKENIZER)).status).toBe(200);
  });

  it('does not run the handler when it answers instead', async () => {
    sb.faults.set('DELETE /api/v1/services/:serviceId', { status: 500, times: 1 });
    expect((await call(sb, 'DELETE', '/api/v1/services/rcs-similar-item')).status).toBe(500);
    expect((await call(sb, 'DELETE', '/api/v1/services/rcs-similar-item')).status).toBe(200);
  });

  it('refuses selectors of routes that do not exist, and malformed faults', () => {
    expect(() => sb.faults.set('GET /api/v1/product', { status: 500 })).toThrow(/unknown sandbox route/);
    expect(() => sb.faults.set('GET /api/v1/products', { times: 0 })).toThrow();
    expect(() => sb.faults.set('GET /api/v1/products', { status: 999 })).toThrow();
  });

  it('closes promptly while a delayed request is pending', async () => {
    const other = await startSandbox();
    other.faults.set('*', { latencyMs: 60_000 });
    const pending = call(other, 'GET', TOKENIZER).catch((error: unknown) => error);
    await waitFor(() => other.requests.entries.length === 1, 5_000, 'the request to arrive');
    // Were close to wait for the delayed answer, it would outlast the test's own timeout (30 s) by far.
    await other.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});
