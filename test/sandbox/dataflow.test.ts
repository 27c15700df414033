import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, gatewayErrorBody } from './sandbox-client.js';

const NOW = Date.parse('2025-04-01T03:04:05Z');
const condition = {
  nrn: 'nrn:PUB:DataFlow::2740513:Job/job-orders-daily',
  scriptPath: 'b/scripts/',
  logPath: 'b/logs/',
};

describe('data-flow service (E4)', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ now: () => NOW });
  });
  afterAll(() => sb.close());

  const update = (jobId: string, body: unknown) =>
    call(sb, 'PUT', `/api/v1/jobs/${jobId}/executions`, { body, timestamp: NOW });

  it('updates the execution options and moves updatedDate', async () => {
    const res = await update('job-orders-daily', { jobCondition: { ...condition, numWorker: 6, timeout: 90 } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      jobId: 'job-orders-daily',
      type: 'DATAFLOW',
      status: 'RUNNABLE',
      runCondition: { ...condition, numWorker: 6, timeout: 90 },
      createdDate: '2025-01-14T10:02:11+09:00',
      updatedDate: '2025-04-01T12:04:05+09:00',
    });
    // The update is state: a later update that omits numWorker keeps 6.
    const again = await update('job-orders-daily', { jobCondition: { ...condition, logPath: 'b/logs2/' } });
    expect(again.json).toMatchObject({ runCondition: { numWorker: 6, timeout: 90, logPath: 'b/logs2/' } });
  });

  it('returns the node chain with the observed fields', async () => {
    const res = await update('job-clicks-filter', { jobCondition: condition });
    const job = res.json as { nodes: Record<string, unknown>[] };
    expect(job.nodes.map((n) => n.type)).toEqual(['SOURCE_OBS', 'TRANSFORM_FILTER', 'TARGET_OBS']);
    expect(job.nodes[0]).toMatchObject({ id: 1, parentNodeIds: [], dataType: 'CSV', fieldList: expect.any(Array) });
    expect(job.nodes[1]).toMatchObject({
      parentNodeIds: [1],
      filterType: 'AND',
      filterConditionList: [{ operator: 'EQ' }],
    });
    expect(job.nodes[2]).toMatchObject({ parentNodeIds: [2], updateType: 'OVERWRITE', bucketName: expect.any(String) });
  });

  it('enforces the jobCondition rules', async () => {
    const bad = [
      {},
      { jobCondition: { ...condition, numWorker: 1 } },
      { jobCondition: { ...condition, numWorker: 11 } },
      { jobCondition: { ...condition, timeout: 1441 } },
      { jobCondition: { ...condition, timeout: 0 } },
      { jobCondition: { scriptPath: 's', logPath: 'l' } },
      { jobCondition: { ...condition, logPath: 5 } },
    ];
    for (const body of bad) {
      const res = await update('job-orders-daily', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toEqual(gatewayErrorBody('100'));
    }
  });

  it('answers an unknown job with 404', async () => {
    const res = await update('job-nope', { jobCondition: condition });
    expect(res.status).toBe(404);
    expect(res.json).toEqual(gatewayErrorBody('300'));
  });
});
