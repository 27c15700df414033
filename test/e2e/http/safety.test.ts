/**
 * Safety over Streamable HTTP, for a 2025 client (the v1 SDK's) and a 2026-07-28 client (the v2 SDK's, pinned):
 * X-MCP-Read-Only and X-MCP-Tools narrow one client's tools (on initialize in session mode, on every request
 * otherwise) and never widen the process's; a bad header is refused; a form confirms a destructive call over a
 * 2025 session's stream or as a 2026-07-28 input request, while a stateless 2025 client gets no form and needs
 * `confirm`. A recording upstream counts what arrives.
 */
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import {
  INITIALIZE,
  connectEraClient,
  rawRequest,
  rpcMessage,
  spawnHttpServer,
  type HttpServerProcess,
} from '../../helpers/spawn-http.js';
import { fullEnv } from '../../helpers/upstream.js';

let upstream: RecordingServer;
beforeAll(async () => {
  upstream = await startRecordingServer();
});
afterAll(async () => {
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const MIGRATE = { keyTag: 'kt-1', targetRegion: 'JPN' };
const MIGRATED = { body: { code: 'SUCCESS', data: { keyTag: 'kt-1', targetRegion: 'JPN' } } };
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

for (const [mode, era] of [
  ['sessions', '2025'],
  ['stateless', '2025'],
  ['sessions', '2026'],
  ['stateless', '2026'],
] as const) {
  describe(`narrowing (${mode}, ${era} client)`, () => {
    let server: HttpServerProcess;
    beforeAll(async () => {
      server = await spawnHttpServer(
        [
          ...(mode === 'stateless' ? ['--stateless'] : []),
          '--tools',
          'search_list_tokenizer_languages,kms_migrate_key,search_update_schema',
        ],
        fullEnv(upstream.url),
      );
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('X-MCP-Read-Only: true leaves only the read-only tools of the process', async () => {
      const client = await connectEraClient(era, server.url, { 'X-MCP-Read-Only': 'true' });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search_list_tokenizer_languages']);
      const refused = (await client.callTool({
        name: 'kms_migrate_key',
        arguments: { ...MIGRATE, confirm: 'kt-1' },
      })) as CallToolResult;
      expect(text(refused)).toMatch(/\[not_enabled\].*read-only mode/);
      expect(upstream.requests).toHaveLength(0);
      await client.close();
    });

    it('X-MCP-Tools narrows, and cannot widen what the process allows', async () => {
      const client = await connectEraClient(era, server.url, {
        'X-MCP-Tools': 'kms_migrate_key,recommendation_delete_service',
      });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['kms_migrate_key']);
      const refused = (await client.callTool({
        name: 'recommendation_delete_service',
        arguments: { serviceId: 's', confirm: 's' },
      })) as CallToolResult;
      expect(text(refused)).toMatch(/\[not_enabled\]/);
      expect(upstream.requests).toHaveLength(0);
      await client.close();
    });

    it('repeated headers narrow each other: a client cannot undo what a proxy in front of it set', async () => {
      /** The tools listed after a request (an initialize, in session mode) with these headers. */
      const listed = async (headers: Record<string, string[]>) => {
        const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        let res;
        if (mode === 'sessions') {
          const init = await rawRequest(server.url, { headers, body: INITIALIZE });
          expect(init.status).toBe(200);
          res = await rawRequest(server.url, {
            headers: { 'Mcp-Session-Id': init.headers['mcp-session-id'] as string },
            body: list,
          });
        } else {
          res = await rawRequest(server.url, { headers, body: list });
        }
        return (rpcMessage(res.body).result as { tools: { name: string }[] }).tools.map((t) => t.name);
      };
      // The proxy's line first, then the client's: the intersection, not the union.
      const tools = ['search_list_tokenizer_languages,kms_migrate_key', 'kms_migrate_key,search_update_schema'];
      expect(await listed({ 'X-MCP-Tools': tools })).toEqual(['kms_migrate_key']);
      expect(await listed({ 'X-MCP-Read-Only': ['true', 'false'] })).toEqual(['search_list_tokenizer_languages']);
      expect(await listed({ 'X-MCP-Read-Only': ['false', 'true'] })).toEqual(['search_list_tokenizer_languages']);
      const bad = await rawRequest(server.url, { headers: { 'X-MCP-Read-Only': ['true', 'maybe'] }, body: INITIALIZE });
      expect(bad.status).toBe(400);
    });

    it('refuses a header it cannot read, naming the valid tools', async () => {
      const res = await rawRequest(server.url, { headers: { 'X-MCP-Tools': 'kms_drop_everything' }, body: INITIALIZE });
      expect(res.status).toBe(400);
      expect(rpcMessage(res.body).error?.message).toMatch(
        /X-MCP-Tools names unknown tools \(kms_drop_everything\); valid: /,
      );
      const bad = await rawRequest(server.url, { headers: { 'X-MCP-Read-Only': 'maybe' }, body: INITIALIZE });
      expect(bad.status).toBe(400);
      expect(rpcMessage(bad.body).error?.message).toMatch(/X-MCP-Read-Only must be true or false/);
    });

    const forms = mode === 'sessions' || era === '2026';
    it(forms ? 'confirms a destructive call with a form' : 'asks no form statelessly: confirm is needed', async () => {
      let asked = 0;
      const client = await connectEraClient(era, server.url, {}, () => {
        asked += 1;
        return { action: 'accept', content: { keyTag: 'kt-1' } } satisfies ElicitResult;
      });
      upstream.reply(MIGRATED);
      const result = (await client.callTool({ name: 'kms_migrate_key', arguments: MIGRATE })) as CallToolResult;
      if (forms) {
        expect(result.isError, text(result)).toBeFalsy();
        expect(asked).toBe(1);
        expect(upstream.requests).toHaveLength(1);
      } else {
        expect(text(result)).toMatch(/\[not_confirmed\].*confirm set to the keyTag/);
        expect(asked).toBe(0);
        expect(upstream.requests).toHaveLength(0);
        const confirmed = (await client.callTool({
          name: 'kms_migrate_key',
          arguments: { ...MIGRATE, confirm: 'kt-1' },
        })) as CallToolResult;
        expect(confirmed.isError, text(confirmed)).toBeFalsy();
        expect(upstream.requests).toHaveLength(1);
      }
      await client.close();
    });
  });
}
