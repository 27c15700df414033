import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, gatewayErrorBody } from './sandbox-client.js';

const ACCOUNT = '4fRk2Q9xLmN7pVb3TzYc1H';

describe('big-data app service (E9)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  const check = (body: unknown) => call(sb, 'POST', '/api/v2/apps/checkAvailableName', { body });

  it('says a free, valid name is available', async () => {
    const res = await check({ accountId: ACCOUNT, name: 'my-new-app1' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, availableName: true });
  });

  it('says a taken name is not available, with a message', async () => {
    const res = await check({ accountId: ACCOUNT, name: 'spark-etl' });
    expect(res.json).toEqual({
      success: true,
      availableName: false,
      message: expect.stringContaining('already in use'),
    });
    // Names are per account.
    expect((await check({ accountId: 'OtherAccount1', name: 'spark-etl' })).json).toMatchObject({
      availableName: true,
    });
  });

  it('explains why a name breaks the rule', async () => {
    for (const name of ['ab', 'a'.repeat(16), 'My-App', '-app', 'app-', 'my--app', 'my_app']) {
      const res = await check({ accountId: ACCOUNT, name });
      expect(res.status, name).toBe(200);
      expect(res.json, name).toMatchObject({
        success: true,
        availableName: false,
        message: expect.stringMatching(/\S/),
      });
    }
    expect((await check({ accountId: ACCOUNT, name: 'a-b-c' })).json).toMatchObject({ availableName: true });
  });

  it('refuses a malformed accountId with a gateway 400', async () => {
    for (const accountId of ['x'.repeat(23), 'not-base62', 42]) {
      const res = await check({ accountId, name: 'fine-name' });
      expect(res.status, String(accountId)).toBe(400);
      expect(res.json).toEqual(gatewayErrorBody('100'));
    }
    expect((await check({ name: 'fine-name' })).status).toBe(400);
    expect((await check({ accountId: ACCOUNT })).status).toBe(400);
  });
});
