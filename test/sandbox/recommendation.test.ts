import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, gatewayErrorBody } from './sandbox-client.js';

interface Schema {
  datasetType: string;
  name: string;
  description: string;
  fields: { name: string; type: string[]; categorical?: boolean }[];
}

describe('recommendation service (E10, E11)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('returns the default schema of each dataset type', async () => {
    for (const datasetType of ['user', 'item', 'interaction']) {
      const res = await call(sb, 'GET', `/api/v1/schemas/default?datasetType=${datasetType}`);
      expect(res.status).toBe(200);
      const schema = res.json as Schema;
      expect(schema).toMatchObject({ datasetType, name: expect.any(String), description: expect.any(String) });
      for (const field of schema.fields) {
        expect(field.type.every((t) => ['string', 'int', 'long', 'boolean', 'null'].includes(t))).toBe(true);
        // categorical is omitted when false.
        expect(field.categorical === undefined || field.categorical === true).toBe(true);
      }
      expect(schema.fields.some((f) => f.categorical)).toBe(true);
    }
  });

  it('refuses a missing or unknown dataset type', async () => {
    for (const uri of ['/api/v1/schemas/default', '/api/v1/schemas/default?datasetType=USER']) {
      const res = await call(sb, 'GET', uri);
      expect(res.status, uri).toBe(400);
      expect(res.json).toEqual(gatewayErrorBody('100'));
    }
  });

  it('deletes a service once; the second delete is not found', async () => {
    const first = await call(sb, 'DELETE', '/api/v1/services/rcs-home-feed');
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ result: expect.stringContaining('deleted') });
    const second = await call(sb, 'DELETE', '/api/v1/services/rcs-home-feed');
    expect(second.status).toBe(404);
    expect(second.json).toEqual(gatewayErrorBody('300'));
  });
});
