import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { BatchAnswers } from '../../src/transports/stdio-batches.js';
import { StdioEra } from '../../src/transports/stdio-era.js';
import { envelope } from '../helpers/modern-post.js';

const answer = (id: string | number) => ({ jsonrpc: '2.0', id, result: {} }) as JSONRPCMessage;
const request = (id: string | number, method: string, params?: object) =>
  ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }) as JSONRPCMessage;

describe('BatchAnswers', () => {
  it('holds the answers of a batch until the last, and lets other answers go alone', () => {
    const batches = new BatchAnswers();
    batches.open([1, 2]);
    expect(batches.answer(answer(7))).toEqual({ kind: 'single' });
    expect(batches.answer(answer(2))).toEqual({ kind: 'held' });
    expect(batches.answer(answer(1))).toEqual({ kind: 'complete', answers: [answer(2), answer(1)] });
    // The batch is over: a late duplicate answer goes alone.
    expect(batches.answer(answer(1))).toEqual({ kind: 'single' });
  });

  it('completes a batch without a cancelled request, and says nothing when nothing was answered', () => {
    const batches = new BatchAnswers();
    batches.open(['a', 'b', 'c']);
    expect(batches.answer(answer('a'))).toEqual({ kind: 'held' });
    expect(batches.cancelled('b')).toBeUndefined();
    expect(batches.cancelled('c')).toEqual([answer('a')]);
    batches.open(['x']);
    expect(batches.cancelled('x')).toBeUndefined();
    expect(batches.cancelled('nobody')).toBeUndefined();
  });

  it('opens nothing for a batch of notifications', () => {
    const batches = new BatchAnswers();
    batches.open([]);
    expect(batches.answer(answer(1))).toEqual({ kind: 'single' });
  });
});

describe('StdioEra', () => {
  const init = (id: number) => request(id, 'initialize', { protocolVersion: '2025-03-26' });
  const modern = (id: number, method = 'tools/list') => request(id, method, { _meta: envelope() });

  it('opens 2025 with initialize, learns the version from its answer, then refuses 2026-07-28 requests', () => {
    const era = new StdioEra();
    expect(era.admit(init(1))).toEqual({ kind: 'pass' });
    expect(era.era).toBe('legacy');
    era.answered({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-03-26' } } as JSONRPCMessage);
    expect(era.negotiated).toBe('2025-03-26');
    expect(era.admit(modern(2))).toMatchObject({ kind: 'answer', id: 2, error: { code: -32600 } });
    expect(era.admit({ jsonrpc: '2.0', method: 'notifications/x', params: { _meta: envelope() } })).toMatchObject({
      kind: 'drop',
    });
    expect(era.admit(request(3, 'tools/list'))).toEqual({ kind: 'pass' });
  });

  it('opens 2026-07-28 with an enveloped request, not with server/discover', () => {
    const era = new StdioEra();
    expect(era.admit(modern(1, 'server/discover'))).toEqual({ kind: 'pass' });
    expect(era.era).toBeUndefined();
    expect(era.admit(modern(2))).toEqual({ kind: 'pass' });
    expect(era.era).toBe('modern');
    // The SDK refuses initialize on a 2026-07-28 connection itself (it is passed), and its error opens nothing.
    expect(era.admit(init(3))).toEqual({ kind: 'pass' });
    era.answered({ jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'no' } } as JSONRPCMessage);
    expect(era.era).toBe('modern');
  });

  it('follows the SDK when an invalid envelope opened nothing and initialize then opened 2025', () => {
    const era = new StdioEra();
    era.admit(modern(1));
    era.admit(init(2));
    era.answered({ jsonrpc: '2.0', id: 2, result: { protocolVersion: '2025-03-26' } } as JSONRPCMessage);
    expect(era.era).toBe('legacy');
    expect(era.admit(modern(3))).toMatchObject({ kind: 'answer' });
  });

  it('before an opening: answers ping, refuses other requests, drops notifications', () => {
    const era = new StdioEra();
    expect(era.admit(request(1, 'ping'))).toEqual({ kind: 'result', id: 1 });
    expect(era.admit(request(2, 'tools/call'))).toMatchObject({ kind: 'answer', error: { code: -32600 } });
    expect(era.admit({ jsonrpc: '2.0', method: 'notifications/initialized' })).toMatchObject({ kind: 'drop' });
    expect(era.era).toBeUndefined();
  });
});
