/**
 * What the in-process confirmation tests share: a mock upstream that deletes a recommendation service and counts the
 * deletions that reached it, and one 2026-07-28 `tools/call` of recommendation_delete_service through the SDK's
 * per-request handler.
 */
import { MockAgent } from 'undici';

export const ORIGIN = 'http://upstream.test';
export const ARGS = { serviceId: 'rcs-home-feed' };

/** The mock upstream: `deleted()` says how many deletions reached it. */
export function deletingUpstream(): { agent: MockAgent; deleted: () => number } {
  const agent = new MockAgent();
  agent.disableNetConnect();
  let deleted = 0;
  agent
    .get(ORIGIN)
    .intercept({ path: '/api/v1/services/rcs-home-feed', method: 'DELETE' })
    .reply(() => {
      deleted += 1;
      return {
        statusCode: 200,
        data: { result: 'deleted' },
        responseOptions: { headers: { 'content-type': 'application/json' } },
      };
    })
    .persist();
  return { agent, deleted: () => deleted };
}

/** The delete tool called once, as a 2026-07-28 request with this envelope (`_meta`) and these params. */
export async function callDelete(
  handler: { fetch(request: Request): Promise<Response> },
  id: number,
  meta: Record<string, unknown>,
  params: Record<string, unknown> = {},
): Promise<{ result?: Record<string, unknown>; error?: { code: number } }> {
  const response = await handler.fetch(
    new Request('http://test.local/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'recommendation_delete_service',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'recommendation_delete_service', arguments: ARGS, ...params, _meta: meta },
      }),
    }),
  );
  return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number } };
}
