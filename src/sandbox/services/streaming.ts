import { STREAMING_REGIONS } from '../../catalogue/fields.js';
import { listConfigGroups as listConfigGroupsOp, listServerImages } from '../../catalogue/streaming.js';
import { badRequest, fail } from '../errors.js';
import { streamingFixtures, type ConfigGroup, type StreamingRegionFixtures } from '../fixtures/streaming.js';
import { requestIds } from '../ids.js';
import { routeOf } from '../route-of.js';
import type { Route, SandboxResponse } from '../types.js';
import { optionalInt, requireInt, requireObject } from '../validate.js';

/** E1 and E2 in the three Regions. Read-only: the fixtures never change. */
export function streamingRoutes(): Route[] {
  const nextRequestId = requestIds('streaming');
  // One route per Region: its segment in place of the operation's {region}.
  const at = (path: string, region: StreamingRegionFixtures) =>
    path.replace('{region}', STREAMING_REGIONS[region.region]);
  return streamingFixtures().flatMap((region): Route[] => [
    routeOf(
      listConfigGroupsOp,
      (req) => listConfigGroups(region, req.body, nextRequestId()),
      at(listConfigGroupsOp.path, region),
    ),
    routeOf(
      listServerImages,
      (req) => {
        const generationCode = req.query.get('generationCode');
        if (generationCode !== null && generationCode !== 'G3') fail(badRequest('generationCode must be G3'));
        return envelope(nextRequestId(), { serverImageList: region.serverImages.map((image) => ({ ...image })) });
      },
      at(listServerImages.path, region),
    ),
  ]);
}

function listConfigGroups(region: StreamingRegionFixtures, body: unknown, requestId: string): SandboxResponse {
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
