import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, gatewayErrorBody } from './sandbox-client.js';

const LIST = (segment: string) => `/api/${segment}/configGroup/getKafkaVersionConfigGroupList`;
const IMAGES = (segment: string) => `/api/${segment}/cluster/getClusterServerImageList`;

interface Page {
  code: number;
  message: string;
  requestId: string;
  result: {
    currentPage: number;
    isFirst: boolean;
    isLast: boolean;
    pageSize: number;
    totalCount: number;
    totalPage: number;
    kafkaConfigGroupList: Record<string, unknown>[];
  };
}

describe('streaming service (E1, E2)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  const list = async (segment: string, body: unknown) => {
    const res = await call(sb, 'POST', LIST(segment), { body });
    return { status: res.status, page: res.json as Page };
  };

  it('pages the config groups of a version with the page fields right', async () => {
    const first = await list('v1', { kafkaVersionCode: 2080100 });
    expect(first.status).toBe(200);
    expect(first.page).toMatchObject({ code: 0, message: 'SUCCESS' });
    expect(first.page.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.page.result).toMatchObject({
      currentPage: 1,
      isFirst: true,
      isLast: false,
      pageSize: 10,
      totalCount: 23,
      totalPage: 3,
    });
    expect(first.page.result.kafkaConfigGroupList).toHaveLength(10);

    const second = await list('v1', { kafkaVersionCode: 2080100, pageNo: 2, pageSize: 10 });
    expect(second.page.result).toMatchObject({ currentPage: 2, isFirst: false, isLast: false });
    const numbers = (p: Page) => p.result.kafkaConfigGroupList.map((g) => g.configGroupNo);
    expect(numbers(second.page)).not.toEqual(numbers(first.page));
    expect(new Set([...numbers(first.page), ...numbers(second.page)]).size).toBe(20);

    const last = await list('v1', { kafkaVersionCode: 2080100, pageNo: 3 });
    expect(last.page.result).toMatchObject({ isLast: true });
    expect(last.page.result.kafkaConfigGroupList).toHaveLength(3);

    const beyond = await list('v1', { kafkaVersionCode: 2080100, pageNo: 9 });
    expect(beyond.page.result.kafkaConfigGroupList).toEqual([]);
  });

  it('sends kafkaVersionCode as a string in some entries, and a permission field', async () => {
    const { page } = await list('v1', { kafkaVersionCode: 2080100, pageSize: 6 });
    const codes = page.result.kafkaConfigGroupList.map((g) => g.kafkaVersionCode);
    expect(codes).toContain('2080100');
    expect(codes).toContain(2080100);
    expect(page.result.kafkaConfigGroupList[0]).toMatchObject({
      kafkaVersion: '2.8.1',
      permission: expect.any(String),
    });
  });

  it('serves each Region from its own prefix with its own fixtures', async () => {
    const sgn = await list('sgn-v1', { kafkaVersionCode: 3050100 });
    expect(sgn.page.result.totalCount).toBe(7);
    const jpn = await list('jpn-v1', { kafkaVersionCode: 2080100 });
    expect(jpn.page.result).toMatchObject({ totalCount: 0, totalPage: 0, kafkaConfigGroupList: [] });
  });

  it('enforces the body rules', async () => {
    for (const body of [
      {},
      { kafkaVersionCode: '2080100' },
      { kafkaVersionCode: 2080100, pageNo: 0 },
      { kafkaVersionCode: 2080100, pageSize: 1.5 },
    ]) {
      const res = await call(sb, 'POST', LIST('v1'), { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toEqual(gatewayErrorBody('100'));
    }
  });

  it('lists G3 server images and refuses other generation codes', async () => {
    for (const uri of [IMAGES('v1'), `${IMAGES('v1')}?generationCode=G3`]) {
      const res = await call(sb, 'GET', uri);
      expect(res.status).toBe(200);
      const images = (res.json as { result: { serverImageList: Record<string, unknown>[] } }).result.serverImageList;
      expect(images).toContainEqual({
        serverImageNo: expect.any(Number),
        softwareProductCode: 'SW.VSVR.OS.LNX64.ROCKY.0810.B050',
        serverName: 'Rocky Linux 8.10',
        order: expect.any(Number),
      });
    }
    const g2 = await call(sb, 'GET', `${IMAGES('jpn-v1')}?generationCode=G2`);
    expect(g2.status).toBe(400);
  });
});
