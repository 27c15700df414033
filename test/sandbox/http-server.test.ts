import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, gatewayErrorBody, rawCall } from './sandbox-client.js';

describe('sandbox HTTP server', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('listens on loopback with an ephemeral port', () => {
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers an unknown path with 404 and errorCode 300', async () => {
    const res = await call(sb, 'GET', '/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.json).toEqual(gatewayErrorBody('300'));
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await call(sb, 'POST', '/api/v1/products', { body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.json).toEqual(gatewayErrorBody('100'));
  });

  it('refuses invalid JSON with 400 and errorCode 100', async () => {
    const res = await call(sb, 'POST', '/api/v2/apps/checkAvailableName', { rawBody: '{"accountId": ' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual(gatewayErrorBody('100'));
  });

  it('parses form bodies into an object of strings', async () => {
    const res = await call(sb, 'POST', '/api/v2/apps/checkAvailableName', {
      rawBody: 'accountId=&name=spark-etl',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, availableName: false });
  });

  it('refuses a body over 1 MiB with 413 and errorCode 430', async () => {
    const res = await call(sb, 'POST', '/api/v2/apps/checkAvailableName', {
      rawBody: JSON.stringify({ accountId: '', name: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.json).toEqual(gatewayErrorBody('430'));
  });

  it('decodes percent-encoded path parameters', async () => {
    const res = await call(sb, 'PUT', '/api/v1/jobs/job%2Dorders%2Ddaily/executions', {
      body: { jobCondition: { nrn: 'nrn:x', scriptPath: 's/', logPath: 'l/' } },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ jobId: 'job-orders-daily' });
  });

  it('never lets an encoded dot segment or slash reach another route', async () => {
    for (const segment of ['%2E%2E', '%2e', '..', 'a%2Fb', '%2F']) {
      const res = await rawCall(sb, 'DELETE', `/api/v1/services/${segment}`);
      expect(res.status, segment).toBe(404);
    }
    // `..` must not climb from the product path to /api/v1/products.
    const climb = await rawCall(
      sb,
      'POST',
      '/api/v1/products/prd-orders/apis/%2E%2E/resources/res-orders/methods/GET/responses',
    );
    expect(climb.status).toBe(404);
  });

  it('refuses malformed percent-encoding with 400', async () => {
    const res = await rawCall(sb, 'DELETE', '/api/v1/services/%E0%A4%A');
    expect(res.status).toBe(400);
  });

  it('refuses a body of an unsupported content type', async () => {
    const res = await call(sb, 'POST', '/api/v2/apps/checkAvailableName', {
      rawBody: 'hello',
      contentType: 'text/plain',
    });
    expect(res.status).toBe(400);
  });

  it('records what it received', async () => {
    sb.requests.clear();
    await call(sb, 'GET', '/api/v1/products?limit=1');
    expect(sb.requests.entries).toHaveLength(1);
    const last = sb.requests.last();
    expect(last).toMatchObject({ method: 'GET', rawUri: '/api/v1/products?limit=1', body: '' });
    expect(last?.headers['x-svc-iam-access-key']).toBe(sb.credentials.accessKey);
    sb.requests.clear();
    expect(sb.requests.entries).toHaveLength(0);
  });

  it('logs method, path and status without queries or credentials', async () => {
    const lines: string[] = [];
    const logged = await startSandbox({ log: (line) => lines.push(line) });
    try {
      await call(logged, 'GET', '/api/v1/products?productName=secretish');
      await call(logged, 'GET', '/api/v1/products', { auth: 'none' });
    } finally {
      await logged.close();
    }
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/GET \/api\/v1\/products -> 200/);
    expect(lines[1]).toMatch(/-> 401/);
    const all = lines.join('\n');
    for (const hidden of ['secretish', logged.credentials.secretKey, logged.credentials.accessKey]) {
      expect(all).not.toContain(hidden);
    }
  });

  it('starts each sandbox with fresh state', async () => {
    const a = await startSandbox();
    const b = await startSandbox();
    try {
      expect((await call(a, 'DELETE', '/api/v1/services/rcs-cart-upsell')).status).toBe(200);
      expect((await call(a, 'DELETE', '/api/v1/services/rcs-cart-upsell')).status).toBe(404);
      expect((await call(b, 'DELETE', '/api/v1/services/rcs-cart-upsell')).status).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
