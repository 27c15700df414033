import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, gatewayErrorBody } from './sandbox-client.js';

interface ProductList {
  initialCount: number;
  productPage: { total: number; content: { productId: string; productName: string; [k: string]: unknown }[] };
}

const NOW = Date.parse('2025-04-01T03:04:05.678Z');
const RESPONSES = '/api/v1/products/prd-orders/apis/api-orders-v1/resources/res-orders/methods';

describe('API-gateway service (E6, E7)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ now: () => NOW });
  });
  afterAll(() => sb.close());

  const list = async (query = '') => {
    const res = await call(sb, 'GET', `/api/v1/products${query}`, { timestamp: NOW });
    return { status: res.status, body: res.json as ProductList };
  };
  const names = (body: ProductList) => body.productPage.content.map((p) => p.productName);

  it('lists all products with the spec fields', async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(body.initialCount).toBe(12);
    expect(body.productPage.total).toBe(12);
    expect(body.productPage.content[0]).toMatchObject({
      productId: 'prd-analytics',
      invokeId: expect.any(String),
      tenantId: expect.any(String),
      productName: 'analytics-export',
      productDescription: expect.any(String),
      isPublished: true,
      subscriptionCode: 'PUBLIC',
      hasDeployedStage: false,
      modifier: expect.any(String),
      modTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+09:00$/),
    });
  });

  it('pages with offset and limit', async () => {
    const page1 = await list('?offset=0&limit=5');
    const page2 = await list('?offset=5&limit=5');
    const page3 = await list('?offset=10&limit=5');
    expect(names(page1.body)).toHaveLength(5);
    expect(names(page2.body)).not.toEqual(names(page1.body));
    expect(names(page3.body)).toHaveLength(2);
    expect(page2.body.productPage.total).toBe(12);
  });

  it('takes 64-bit offsets and limits exactly', async () => {
    const huge = await list('?offset=9223372036854775807&limit=9223372036854775807');
    expect(huge.status).toBe(200);
    expect(huge.body.productPage.content).toEqual([]);
    const all = await list('?offset=0&limit=9223372036854775807');
    expect(all.body.productPage.content).toHaveLength(12);
    for (const bad of ['?offset=9223372036854775808', '?limit=0', '?offset=-1', '?limit=1.5', '?offset=1e3']) {
      const res = await list(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body).toEqual(gatewayErrorBody('100'));
    }
  });

  it('filters by every query field', async () => {
    expect(names((await list('?productName=ORDERS')).body)).toEqual(['orders-api', 'orders-api-legacy']);
    expect((await list('?isPublished=false')).body.productPage.total).toBe(4);
    expect((await list('?subscriptionCode=PROTECTED')).body.productPage.total).toBe(5);
    expect((await list('?hasDeployedStage=true')).body.productPage.total).toBe(8);
    expect(names((await list('?hasStageNotAssociatedWithUsagePlanId=up-basic')).body)).toEqual([
      'catalog-api',
      'coupon-issuer',
      'inventory-api',
      'orders-api',
      'search-suggest',
    ]);
    const combined = await list('?isPublished=true&subscriptionCode=PUBLIC&hasDeployedStage=true&limit=1');
    expect(combined.body.productPage.total).toBe(3);
    expect(names(combined.body)).toEqual(['catalog-api']);
    expect(combined.body.initialCount).toBe(12);
  });

  it('enforces the query rules', async () => {
    for (const bad of ['?isPublished=yes', '?subscriptionCode=PRIVATE', `?productName=${'a'.repeat(101)}`]) {
      expect((await list(bad)).status, bad).toBe(400);
    }
    expect((await list(`?productName=${'a'.repeat(100)}`)).status).toBe(200);
  });

  it('adds a method response and refuses the same status code twice', async () => {
    const res = await call(sb, 'POST', `${RESPONSES}/GET/responses`, {
      body: { statusCode: 429, responseDescription: 'Too many requests' },
      timestamp: NOW,
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      methodResponseDto: {
        tenantId: expect.any(String),
        apiId: 'api-orders-v1',
        resourceId: 'res-orders',
        methodCode: '0001',
        statusCode: 429,
        responseDescription: 'Too many requests',
        modifier: expect.any(String),
      },
    });
    const again = await call(sb, 'POST', `${RESPONSES}/GET/responses`, { body: { statusCode: 429 }, timestamp: NOW });
    expect(again.status).toBe(409);
    expect(again.json).toEqual(gatewayErrorBody('100'));
    // The product's modification time moved.
    const { body } = await list('?productName=orders-api&limit=1');
    expect(body.productPage.content[0]?.modTime).toBe('2025-04-01T12:04:05.678+09:00');
  });

  it('enforces the E6 rules', async () => {
    const post = (path: string, body: unknown) => call(sb, 'POST', path, { body, timestamp: NOW });
    for (const body of [
      {},
      { statusCode: 99 },
      { statusCode: 600 },
      { statusCode: '200' },
      { statusCode: 200, responseDescription: 'x'.repeat(2001) },
    ]) {
      expect((await post(`${RESPONSES}/POST/responses`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await post(`${RESPONSES}/FETCH/responses`, { statusCode: 200 })).status).toBe(400);
    expect((await post(`${RESPONSES}/get/responses`, { statusCode: 200 })).status).toBe(400);
    const ok = await post(`${RESPONSES}/POST/responses`, { statusCode: 409, responseDescription: 'x'.repeat(2000) });
    expect(ok.status).toBe(200);
  });

  it('answers unknown product, API, resource or method with 404', async () => {
    const paths = [
      '/api/v1/products/prd-nope/apis/api-orders-v1/resources/res-orders/methods/GET/responses',
      '/api/v1/products/prd-orders/apis/api-nope/resources/res-orders/methods/GET/responses',
      '/api/v1/products/prd-orders/apis/api-orders-v1/resources/res-nope/methods/GET/responses',
      `${RESPONSES}/PATCH/responses`,
    ];
    for (const path of paths) {
      const res = await call(sb, 'POST', path, { body: { statusCode: 200 }, timestamp: NOW });
      expect(res.status, path).toBe(404);
      expect(res.json).toEqual(gatewayErrorBody('300'));
    }
  });
});
