/**
 * A 2026-07-28 result carries the server's identity in `_meta`: whole (description, icon) in server/discover, and in
 * every other result only what identifies the server (issue 26, point 6: ~700 bytes per result before).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postModern, responseOf } from '../../helpers/modern-post.js';
import { spawnHttpServer, type HttpServerProcess } from '../../helpers/spawn-http.js';

const INFO = 'io.modelcontextprotocol/serverInfo';
let server: HttpServerProcess;

beforeAll(async () => {
  server = await spawnHttpServer(['--sandbox', '--stateless']);
}, 30_000);
afterAll(() => server?.stop());

async function rpc(method: string, params: Record<string, unknown> = {}) {
  const { text } = await postModern(server.url, method, params);
  return responseOf(text) as { result: { _meta: Record<string, Record<string, unknown>> } };
}

it('is whole in server/discover and name, title and version in every other result', async () => {
  const discovered = (await rpc('server/discover')).result._meta[INFO]!;
  expect(discovered.description).toEqual(expect.any(String));
  expect(discovered.icons).toHaveLength(1);
  for (const answer of [
    await rpc('tools/list'),
    await rpc('tools/call', { name: 'search_list_tokenizer_languages', arguments: {} }),
  ]) {
    const info = answer.result._meta[INFO]!;
    expect(info).toEqual({ name: 'svc-platform-mcp', title: discovered.title, version: discovered.version });
    expect(JSON.stringify(info).length).toBeLessThan(100);
  }
});
