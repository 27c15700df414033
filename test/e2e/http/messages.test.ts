import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INITIALIZE,
  rawRequest,
  rpcMessage,
  spawnHttpServer,
  type HttpServerProcess,
} from '../../helpers/spawn-http.js';

// What the transport answers for JSON-RPC messages it cannot take, against `--http --sandbox`, in both modes:
// one invalid-request error (-32600, id null), never a parse error for valid JSON, never nothing at all.

const INVALID_IDS: [string, unknown][] = [
  ['null', null],
  ['an object', { n: 1 }],
  ['an array', [1]],
  ['1.5', 1.5],
  ['true', true],
];

for (const mode of ['sessions', 'stateless'] as const) {
  describe(`JSON-RPC checks of POST bodies (${mode})`, () => {
    let server: HttpServerProcess;
    let headers: Record<string, string>;
    const post = (body: unknown, extra: Record<string, string> = {}) =>
      rawRequest(server.url, { headers: { ...headers, ...extra }, body: JSON.stringify(body) });

    beforeAll(async () => {
      server = await spawnHttpServer(mode === 'stateless' ? ['--sandbox', '--stateless'] : ['--sandbox']);
      headers = { 'Mcp-Protocol-Version': '2025-06-18' };
      if (mode === 'sessions') {
        const init = await rawRequest(server.url, { body: INITIALIZE });
        headers['Mcp-Session-Id'] = init.headers['mcp-session-id'] as string;
      }
    });
    afterAll(async () => {
      expect(await server.stop()).toBe(0);
    });

    it.each(INVALID_IDS)(
      'a request whose id is %s gets 400 and an invalid-request error with id null',
      async (_, id) => {
        const res = await post({ jsonrpc: '2.0', id, method: 'tools/list' });
        expect(res.status).toBe(400);
        const answer = JSON.parse(res.body) as { id: unknown; error: { code: number; message: string } };
        expect(answer.id).toBeNull();
        expect(answer.error.code).toBe(-32600);
        expect(answer.error.message).toMatch(/"id" must be a string or an integer/);
      },
    );

    it('a message that is no request, notification or response gets -32600 too (the body is valid JSON)', async () => {
      for (const body of [{ jsonrpc: '2.0', id: 3 }, { jsonrpc: '1.0', id: 3, method: 'ping' }, 'ping', 42]) {
        const res = await post(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(rpcMessage(res.body).error?.code, JSON.stringify(body)).toBe(-32600);
      }
    });

    it('batches: refused for 2025-06-18 (which removed them); for earlier versions each message is checked', async () => {
      const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
      const refused = await post([ping(1), ping(2)]);
      expect(refused.status).toBe(400);
      expect(rpcMessage(refused.body).error).toMatchObject({
        code: -32600,
        message: expect.stringContaining('batches are not supported'),
      });

      const old = { 'Mcp-Protocol-Version': '2025-03-26' };
      const served = await post([ping(1), ping(2)], old);
      expect(served.status).toBe(200);
      expect(served.body.match(/"result":\{\}/g)).toHaveLength(2);
      const empty = await post([], old);
      expect(empty.status).toBe(400);
      expect(rpcMessage(empty.body).error).toMatchObject({
        code: -32600,
        message: expect.stringContaining('empty batch'),
      });
      const mixed = await post([ping(1), { jsonrpc: '2.0', id: null, method: 'ping' }], old);
      expect(mixed.status).toBe(400);
      expect(rpcMessage(mixed.body).error).toMatchObject({
        code: -32600,
        message: expect.stringContaining('message 2 of the batch'),
      });
    });

    it('params that are no object get -32600; arguments that are no object, or a tool name that is no string, -32602', async () => {
      const list = await post({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: [] });
      expect(rpcMessage(list.body).error?.code).toBe(-32600);
      for (const params of [
        { name: 'search_list_tokenizer_languages', arguments: [1, 2] },
        { name: 'search_list_tokenizer_languages', arguments: 'all' },
        { name: 5, arguments: {} },
      ]) {
        const res = await post({ jsonrpc: '2.0', id: 8, method: 'tools/call', params });
        expect(rpcMessage(res.body).error?.code, JSON.stringify(params)).toBe(-32602);
      }
    });

    it('valid messages still pass: a request, and a notification (202)', async () => {
      expect((await post({ jsonrpc: '2.0', id: 'a-1', method: 'ping' })).status).toBe(200);
      if (mode === 'sessions')
        expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    });
  });
}
