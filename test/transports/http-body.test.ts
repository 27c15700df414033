import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readJsonBody, type BodyResult } from '../../src/transports/http-body.js';
import { invalidBody } from '../../src/transports/jsonrpc-check.js';

/** A request body the test writes by hand. */
const body = (headers: Record<string, string> = {}) =>
  Object.assign(new PassThrough(), { headers }) as PassThrough & IncomingMessage;

describe('readJsonBody deadline (unit, fake timers)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('gives up on a body still arriving at the deadline (an endless chunked body, a trickle)', async () => {
    const req = body();
    let result: BodyResult | undefined;
    void readJsonBody(req, 1024, 5000).then((r) => (result = r));
    for (let i = 0; i < 49; i += 1) {
      req.write(' '); // a byte every 100 ms: never idle, never done
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(100);
    expect(result).toEqual({ kind: 'timeout' });
  });

  it('reads a body that ends in time, and leaves no timer behind', async () => {
    const req = body();
    const reading = readJsonBody(req, 1024, 5000);
    req.end('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(await reading).toEqual({ kind: 'json', value: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a declared Content-Length over the limit is refused at once', async () => {
    expect(await readJsonBody(body({ 'content-length': '5000' }), 1024, 5000)).toEqual({ kind: 'too-large' });
  });
});

describe('invalidBody (unit)', () => {
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };

  it('checks a single message as invalidMessage does', () => {
    expect(invalidBody(ping, '2025-06-18')).toBeUndefined();
    expect(invalidBody({ ...ping, id: null }, '2025-06-18')?.code).toBe(-32600);
    expect(invalidBody({ ...ping, id: 2 ** 60 }, undefined)?.message).toMatch(/"id"/);
  });

  it('refuses batches from 2025-06-18 on; checks each message of one under earlier versions (no header: 2025-03-26)', () => {
    for (const version of ['2025-06-18', '2025-11-25'])
      expect(invalidBody([ping], version)?.message, version).toMatch(/batches are not supported/);
    for (const version of ['2025-03-26', '2024-11-05', undefined])
      expect(invalidBody([ping, { ...ping, id: 'b' }], version), version).toBeUndefined();
    expect(invalidBody([], '2025-03-26')).toEqual({ code: -32600, message: 'Invalid Request: an empty batch' });
    expect(invalidBody([ping, { ...ping, id: {} }], undefined)?.message).toMatch(
      /"id" must be .*\(message 2 of the batch\)$/,
    );
    expect(invalidBody([ping, [ping]], '2025-03-26')?.message).toMatch(
      /batches are not supported.*\(message 2 of the batch\)$/,
    );
  });
});
