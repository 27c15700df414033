import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, gatewayErrorBody } from './sandbox-client.js';

const KOREAN = { type: 'hanaterm', method: 'sgmt', option: '+korea +josacat +eomicat' };
const section = (name: string) => ({ name, docProperties: [{ type: 'string', name }] });
const index = (name: string, sectionName: string, processor = KOREAN) => ({
  name,
  documentTermWeight: 'sum_wgt',
  buildInfos: [
    { name: `${sectionName}_build`, sections: [sectionName], sectionTermWeight: '1.0', indexProcessors: [processor] },
  ],
});

/** The products domain's fixture schema, as a client would resend it. */
const productsSchema = () => ({
  primarySectionName: 'product_id',
  sections: [section('product_id'), section('title'), section('description')],
  indexes: [index('title_idx', 'title'), index('description_idx', 'description')],
});

describe('search service (E13, E14)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  const put = (domain: string, document: unknown) =>
    call(sb, 'PUT', `/CloudSearch/real/v1/domain/${domain}/schema`, { body: { document } });

  it('lists exactly the six tokenizer languages', async () => {
    const res = await call(sb, 'GET', '/CloudSearch/real/v1/tokenizer');
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      { language: 'chinese', type: 'hanaterm', method: 'sgmt', option: '+china +china_cn +china_tw' },
      { language: 'english', type: 'hanaterm', method: 'sgmt', option: '+english +revert' },
      { language: 'indonesian', type: 'hanaterm', method: 'sgmt', option: '+indonesian' },
      { language: 'japanese', type: 'hanaterm', method: 'sgmt', option: '+japan +josacat +eomicat' },
      { language: 'korean', type: 'hanaterm', method: 'sgmt', option: '+korea +josacat +eomicat' },
      { language: 'thai', type: 'hanaterm', method: 'sgmt', option: '+thai' },
    ]);
  });

  it('accepts a schema that adds an index, and then keeps that index too', async () => {
    const doc = productsSchema();
    doc.sections.push(section('brand'));
    doc.indexes.push(index('brand_idx', 'brand'));
    const res = await put('products', doc);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ result: expect.stringContaining('success') });
    // brand_idx is now an existing index: dropping it is refused.
    const dropped = await put('products', productsSchema());
    expect(dropped.status).toBe(400);
    expect(dropped.text).toContain('brand_idx');
  });

  it('refuses a schema that removes an index', async () => {
    const doc = productsSchema();
    doc.indexes = doc.indexes.filter((i) => i.name !== 'title_idx');
    const res = await put('products', doc);
    expect(res.status).toBe(400);
    expect(res.json).toEqual(gatewayErrorBody('100'));
    expect(res.text).toContain('title_idx was removed');
  });

  it('refuses a schema that changes an index', async () => {
    const doc = {
      primarySectionName: 'doc_id',
      sections: [section('doc_id'), section('title'), section('body')],
      indexes: [index('body_idx', 'body', { type: 'hanaterm', method: 'sgmt', option: '+thai' })],
    };
    const res = await put('manuals', doc);
    expect(res.status).toBe(400);
    expect(res.text).toContain('body_idx was changed');
  });

  it('refuses an invalid schema and answers an unknown domain with 404', async () => {
    expect((await put('manuals', { sections: [] })).status).toBe(400);
    const badRef = productsSchema();
    badRef.indexes.push(index('ghost_idx', 'ghost'));
    expect((await put('products', badRef)).status).toBe(400);
    const missing = await put('no-such-domain', productsSchema());
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual(gatewayErrorBody('300'));
  });
});
