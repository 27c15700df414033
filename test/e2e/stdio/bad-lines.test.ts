/**
 * Lines no client should send, through the built server over raw pipes: each gets a JSON-RPC error on stdout (id null
 * unless the request's own id could be read) instead of silence or an exit, and the session goes on.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnRawStdio, type RawStdioServer, type RpcLine } from '../../helpers/raw-stdio.js';

const MiB = 1024 * 1024;
let server: RawStdioServer;

beforeAll(async () => {
  server = spawnRawStdio([], {});
  await server.initialize();
});
afterAll(() => server?.kill());

/** Sends one line and waits for the error answer (id null) that follows it. */
async function answerTo(line: string): Promise<RpcLine> {
  const before = server.messages.length;
  server.send(line);
  return server.next(
    (m) => server.messages.indexOf(m) >= before && m.error !== undefined,
    10_000,
    `an error answer to ${line.slice(0, 60)}`,
  );
}

it('answers a line that is not JSON with a parse error (-32700), id null', async () => {
  const answer = await answerTo('{"jsonrpc":"2.0","id":1,"method":');
  expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  expect(answer.error!.message).toMatch(/^Parse error/);
});

it.each([
  ['a batch', [{ jsonrpc: '2.0', id: 2, method: 'ping' }], /batches are not supported/],
  ['an id that is null', { jsonrpc: '2.0', id: null, method: 'ping' }, /"id" must be a string or an integer/],
  ['an id that is an object', { jsonrpc: '2.0', id: { n: 1 }, method: 'ping' }, /"id"/],
  ['an id that is not an integer', { jsonrpc: '2.0', id: 1.5, method: 'ping' }, /"id"/],
  ['no method', { jsonrpc: '2.0', id: 3 }, /needs a "method"/],
  ['a JSON string', 'just text', /must be a JSON object/],
])('answers %s with an invalid request (-32600), id null', async (_, message, why) => {
  const answer = await answerTo(JSON.stringify(message));
  expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  expect(answer.error!.message).toMatch(why);
});

it('answers a request the SDK would drop (params not an object) with an invalid request under its own id', async () => {
  server.send({ jsonrpc: '2.0', id: 'bad-params', method: 'tools/list', params: 5 });
  const answer = await server.next((m) => m.id === 'bad-params', 10_000, 'the answer to bad-params');
  expect(answer.error?.code).toBe(-32600);
});

it('answers a line over 10 MiB with an error, keeps no more of it than the limit, and still serves the next request', async () => {
  const huge = JSON.stringify({
    jsonrpc: '2.0',
    id: 'huge',
    method: 'tools/call',
    params: { name: 'x', arguments: { text: 'a'.repeat(11 * MiB) } },
  });
  const answer = await answerTo(huge);
  expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  expect(answer.error!.message).toMatch(/over 10485760 bytes/);
  expect(server.stderr()).toContain('"event":"stdio_refused","reason":"too_large"');

  const tools = await server.request('tools/list');
  expect((tools.result?.tools as unknown[]).length).toBeGreaterThan(10);
  expect(server.child.exitCode).toBeNull();
}, 30_000);

it('takes blank lines as nothing, writes nothing but JSON-RPC on stdout, and still answers', async () => {
  const before = server.messages.length;
  server.send('');
  server.send('   \r');
  expect((await server.request('ping')).result).toEqual({});
  expect(server.messages.length).toBe(before + 1);
  expect(server.garbage).toEqual([]);
});
