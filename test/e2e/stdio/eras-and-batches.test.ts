/**
 * One stdio connection keeps the era it opened with, and a 2025-03-26 connection may send JSON-RPC batches (that
 * revision had them; 2025-06-18 removed them). The built server over raw pipes, as a client that mixes eras would
 * write.
 */
import { afterEach, expect, it } from 'vitest';
import { spawnRawStdio, type RawStdioServer, type RpcLine } from '../../helpers/raw-stdio.js';
import { envelope } from '../../helpers/modern-post.js';

let server: RawStdioServer | undefined;
afterEach(() => server?.kill());

const start = () => (server = spawnRawStdio([], {}));
const modern = (params: Record<string, unknown> = {}) => ({ ...params, _meta: envelope() });
/** The line that is an array (a batch's answers). */
const batchAnswer = (s: RawStdioServer) =>
  s.next((m) => Array.isArray(m), 10_000, 'the answers of the batch') as unknown as Promise<RpcLine[]>;

it('refuses a request before the connection opened, answers ping, and drops a stray notification', async () => {
  const s = start();
  s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const early = await s.request('tools/call', { name: 'maps_geocode', arguments: { query: 'x' } });
  expect(early.error).toMatchObject({ code: -32600 });
  expect(early.error!.message).toMatch(/not been opened: send initialize first/);
  expect((await s.request('ping')).result).toEqual({});
  // Neither the notification nor the ping opened an era: a 2026-07-28 request still can.
  const listed = await s.request('tools/list', modern());
  expect((listed.result?.tools as unknown[]).length).toBeGreaterThan(0);
  expect(s.stderr()).toMatch(/"event":"stdio_dropped","method":"notifications\/initialized"/);
});

it('keeps a 2025 connection in 2025: a request with the 2026-07-28 envelope is refused, naming both eras', async () => {
  const s = start();
  await s.initialize('2025-11-25');
  const mixed = await s.request('tools/list', modern());
  expect(mixed.error).toMatchObject({ code: -32600 });
  expect(mixed.error!.message).toMatch(/opened with initialize \(2025 protocol\).*2026-07-28/);
  const plain = await s.request('tools/list');
  expect((plain.result?.tools as unknown[]).length).toBeGreaterThan(0);
});

it('keeps a 2026-07-28 connection in 2026: initialize and a request without the envelope are refused', async () => {
  const s = start();
  const first = await s.request('tools/list', modern());
  expect(first.error).toBeUndefined();
  const init = await s.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'x', version: '0' },
  });
  expect(init.error).toBeDefined();
  const bare = await s.request('tools/list');
  expect(bare.error).toMatchObject({ code: -32602 });
});

it('answers a batch on a 2025-03-26 connection with one array of its requests’ answers', async () => {
  const s = start();
  await s.initialize('2025-03-26');
  s.send([
    { jsonrpc: '2.0', id: 'b1', method: 'ping' },
    { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
    { jsonrpc: '2.0', id: 'b2', method: 'prompts/list' },
    { jsonrpc: '2.0', id: 'b3', method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
  ]);
  const answers = await batchAnswer(s);
  expect(answers.map((a) => a.id).sort()).toEqual(['b1', 'b2', 'b3']);
  expect(answers.find((a) => a.id === 'b1')?.result).toEqual({});
  expect(answers.find((a) => a.id === 'b2')?.result?.prompts).toBeDefined();
  expect(answers.find((a) => a.id === 'b3')?.error?.message).toMatch(/Unknown tool/);
  // None of them also went out alone.
  expect(s.messages.filter((m) => !Array.isArray(m) && typeof m.id === 'string')).toEqual([]);
});

it('refuses a whole batch with one invalid message, and a batch of notifications has no answer', async () => {
  const s = start();
  await s.initialize('2025-03-26');
  s.send([{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }]);
  s.send([
    { jsonrpc: '2.0', id: 'ok', method: 'ping' },
    { jsonrpc: '2.0', id: null, method: 'ping' },
  ]);
  const refused = await s.next((m) => m.id === null, 10_000, 'the refusal');
  expect(refused.error?.message).toMatch(/"id" must be .*\(message 2 of the batch\)/);
  expect((await s.request('ping')).result).toEqual({});
  expect(s.messages.some((m) => Array.isArray(m) || m.id === 'ok')).toBe(false);
});

it('refuses batches on a connection that negotiated 2025-06-18 or later', async () => {
  const s = start();
  await s.initialize('2025-06-18');
  s.send([{ jsonrpc: '2.0', id: 'b', method: 'ping' }]);
  const refused = await s.next((m) => m.id === null, 10_000, 'the refusal');
  expect(refused.error).toMatchObject({ code: -32600 });
  expect(refused.error!.message).toMatch(/batches are not supported on this connection/);
});
