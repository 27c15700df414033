import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, gatewayErrorBody } from './sandbox-client.js';

describe('key-management service (E15)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  const migrate = (keyTag: string, body: unknown) => call(sb, 'POST', `/kms/v1/keys/${keyTag}/migrate`, { body });

  it('migrates a global key, which is gone afterwards', async () => {
    const res = await migrate('kt-orders-3f9a1c', { targetRegion: 'KR' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ code: 'SUCCESS', data: { keyTag: 'kt-orders-3f9a1c', targetRegion: 'KR' } });
    const again = await migrate('kt-orders-3f9a1c', { targetRegion: 'JPN' });
    expect(again.status).toBe(404);
    expect(again.json).toEqual(gatewayErrorBody('300'));
  });

  it('refuses when the target Region already has an isolation key of that name, and changes nothing', async () => {
    const clash = await migrate('kt-pii-5c8d0e', { targetRegion: 'JPN' });
    expect(clash.status).toBe(400);
    expect(clash.json).toEqual(gatewayErrorBody('100'));
    expect(clash.text).toContain('already exists');
    // The global key survived the refusal, and can go to the other Region.
    expect((await migrate('kt-pii-5c8d0e', { targetRegion: 'KR' })).status).toBe(200);
  });

  it('refuses a target Region other than KR or JPN', async () => {
    for (const body of [{ targetRegion: 'SGN' }, { targetRegion: 'kr' }, {}]) {
      const res = await migrate('kt-payments-7b2e4d', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await migrate('kt-payments-7b2e4d', { targetRegion: 'JPN' })).status).toBe(200);
  });

  it('answers an unknown key with 404', async () => {
    expect((await migrate('kt-unknown', { targetRegion: 'KR' })).status).toBe(404);
  });
});
