import { badRequest, fail } from '../errors.js';
import { streamingFixtures, type ConfigGroup, type StreamingRegion } from '../fixtures/streaming.js';
import { requestIds } from '../ids.js';
import type { Route, SandboxResponse } from '../types.js';
import { optionalInt, requireInt, requireObject } from '../validate.js';

/** E1 and E2 in the three Regions. Read-only: the fixtures never change. */
export function streamingRoutes(): Route[] {
  const nextRequestId = requestIds('streaming');
  return streamingFixtures().flatMap((region): Route[] => [
    {
      method: 'POST',
      pattern: `/api/${region.segment}/configGroup/getKafkaVersionConfigGroupList`,
      auth: 'gateway-signature',
      handle: (req) => listConfigGroups(region, req.body, nextRequestId()),
    },
    {
      method: 'GET',
      pattern: `/api/${region.segment}/cluster/getClusterServerImageList`,
      auth: 'gateway-signature',
      handle: (req) => {
        const generationCode = req.query.get('generationCode');
        if (generationCode !== null && generationCode !== 'G3') fail(badRequest('generationCode must be G3'));
        return envelope(nextRequestId(), { serverImageList: region.serverImages.map((image) => ({ ...image })) });
      },
    },
  ]);
}

function listConfigGroups(region: StreamingRegion, body: unknown, requestId: string): SandboxResponse {
  const input = requireObject(body, 'request body');
  const kafkaVersionCode = requireInt(input, 'kafkaVersionCode');
  const pageNo = optionalInt(input, 'pageNo', { min: 1 }) ?? 1;
  const pageSize = optionalInt(input, 'pageSize', { min: 1 }) ?? 10;

  const all = region.configGroups.filter((g) => g.kafkaVersionCode === kafkaVersionCode);
  const totalPage = Math.ceil(all.length / pageSize);
  const page = all.slice((pageNo - 1) * pageSize, pageNo * pageSize);
  return envelope(requestId, {
    currentPage: pageNo,
    isFirst: pageNo === 1,
    isLast: pageNo >= totalPage,
    pageSize,
    totalCount: all.length,
    totalPage,
    kafkaConfigGroupList: page.map((group) => serialise(group, all.indexOf(group))),
  });
}

/** Every third entry sends kafkaVersionCode as a string: the spec warns clients that the real service may. */
function serialise(group: ConfigGroup, index: number): Record<string, unknown> {
  return index % 3 === 2 ? { ...group, kafkaVersionCode: String(group.kafkaVersionCode) } : { ...group };
}

function envelope(requestId: string, result: Record<string, unknown>): SandboxResponse {
  return { status: 200, json: { code: 0, message: 'SUCCESS', result, requestId } };
}
