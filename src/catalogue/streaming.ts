import * as z from 'zod';
import { integer, maybeArray, maybeBoolean, maybeInteger, maybeString } from './answers.js';
import { streamingRegion } from './fields.js';
import { defineOperation } from './types.js';

/** A member the spec says may appear and must not be relied on (E1 `permission`, E2 `order`); its type unstated. */
const notToRelyOn = () => z.unknown().optional().describe('May appear; the spec says not to rely on it');

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

/** The envelope of both operations: a success carries code 0 and a result. */
const envelope = <T extends z.ZodRawShape>(result: T) =>
  z.looseObject({
    code: integer(),
    message: maybeString(),
    requestId: maybeString(),
    result: z.looseObject(result),
  });

/**
 * The pages that hold exactly the items a shortened page left out: pageNo + 1 would start after the whole page, so
 * they are asked with a pageSize no larger than what was shown (so each fits as well) that divides the offset of the
 * first item left out.
 */
function pagesAfter(pageNo: number, pageSize: number, { shown, total }: { shown: number; total: number }) {
  const first = (pageNo - 1) * pageSize + shown; // 0-based index of the first item left out
  const last = (pageNo - 1) * pageSize + total - 1;
  let size = Math.max(1, shown);
  while (first % size !== 0) size -= 1;
  const from = first / size + 1;
  const to = Math.floor(last / size) + 1;
  const pages = from === to ? `pageNo ${from}` : `pageNo ${from} to ${to}`;
  return `ask with pageSize ${size} and ${pages} (items ${first + 1}-${last + 1}; pageNo ${pageNo + 1} with pageSize ${pageSize} would skip them)`;
}

export const listConfigGroups = defineOperation({
  id: 'E1',
  name: 'streaming_list_config_groups',
  title: 'List streaming config groups',
  description: 'Lists the config groups of a stream (Kafka) version, paged.',
  service: 'streaming',
  method: 'POST',
  path: '/api/{region}/configGroup/getKafkaVersionConfigGroupList',
  auth: 'gateway-signature',
  streamingRegion: true,
  envelope: 'code-zero',
  paging: (args, cut) => pagesAfter(args.pageNo, args.pageSize, cut),
  input: () =>
    z.strictObject({
      region: streamingRegion(),
      kafkaVersionCode: z.int().describe('Stream version code, e.g. 3050100'),
      pageNo: z.int().min(1).default(1),
      pageSize: z.int().min(1).default(10).describe('No max in the spec; sent as is'),
    }),
  output: () =>
    envelope({
      currentPage: maybeInteger(),
      isFirst: maybeBoolean(),
      isLast: maybeBoolean(),
      pageSize: maybeInteger(),
      totalCount: maybeInteger(),
      totalPage: maybeInteger(),
      kafkaConfigGroupList: maybeArray(
        z.looseObject({
          kafkaVersionCode: maybeInteger(),
          kafkaVersion: maybeString(),
          configGroupNo: maybeInteger(),
          configGroupName: maybeString(),
          description: maybeString(),
          permission: notToRelyOn(),
        }),
      ),
    }),
  annotations: READ,
});

export const listServerImages = defineOperation({
  id: 'E2',
  name: 'streaming_list_server_images',
  title: 'List streaming OS images (G3)',
  description: 'Lists OS images for third-generation (G3, KVM) cluster servers.',
  service: 'streaming',
  method: 'GET',
  path: '/api/{region}/cluster/getClusterServerImageList',
  auth: 'gateway-signature',
  streamingRegion: true,
  envelope: 'code-zero',
  input: () =>
    z.strictObject({
      region: streamingRegion(),
      // A one-value enum, not z.literal: Gemini's function-declaration Schema has no `const`.
      generationCode: z.enum(['G3']).optional().describe('Server generation'),
    }),
  output: () =>
    envelope({
      serverImageList: maybeArray(
        z.looseObject({
          serverImageNo: maybeInteger(),
          softwareProductCode: maybeString(),
          serverName: maybeString(),
          order: notToRelyOn(),
        }),
      ),
    }),
  annotations: READ,
});
