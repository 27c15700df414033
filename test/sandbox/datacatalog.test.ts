import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, gatewayErrorBody } from './sandbox-client.js';

describe('data-catalog service (E8)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  const run = (catalogId: string, scannerId: string) =>
    call(sb, 'PUT', `/api/v1/catalogs/${catalogId}/scanners/${scannerId}/run-scanner`);

  it('starts a scanner, again and again', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await run('1001', '2002');
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ scannerId: 2002, name: 'customers-db-scanner', status: 'SCANNER_STARTING' });
    }
  });

  it('refuses ids that are not integers', async () => {
    for (const [c, s] of [
      ['abc', '2001'],
      ['1001', '2001.5'],
      ['1001', '+1'],
    ]) {
      const res = await run(c!, s!);
      expect(res.status, `${c}/${s}`).toBe(400);
      expect(res.json).toEqual(gatewayErrorBody('100'));
    }
  });

  it('answers an unknown catalog, or a scanner of another catalog, with 404', async () => {
    expect((await run('9999', '2001')).status).toBe(404);
    // A negative id is an Integer too (the spec gives no range): no such catalog, not a malformed one.
    expect((await run('-1', '2001')).status).toBe(404);
    const other = await run('1001', '2003');
    expect(other.status).toBe(404);
    expect(other.json).toEqual(gatewayErrorBody('300'));
  });
});
