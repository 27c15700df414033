import { describe, expect, it, vi } from 'vitest';
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { OutgoingWire, redactMessage, serialised } from '../src/outgoing-wire.js';
import { Redactor } from '../src/util/redact.js';

describe('OutgoingWire', () => {
  it('rewrites what it sends and nothing it receives', async () => {
    const [near, far] = InMemoryTransport.createLinkedPair();
    const received: JSONRPCMessage[] = [];
    far.onmessage = (message) => received.push(message);
    const wire = new OutgoingWire(near, (m) => ({ ...m, id: 'rewritten' }) as JSONRPCMessage);
    const heard: JSONRPCMessage[] = [];
    wire.onmessage = (message) => heard.push(message);
    await wire.start();
    await far.start();
    await wire.send({ jsonrpc: '2.0', id: 1, result: {} });
    await far.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(received).toEqual([{ jsonrpc: '2.0', id: 'rewritten', result: {} }]);
    expect(heard).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('keeps the close handler of a wire it wraps (an endpoint sets one before the server wraps it again)', async () => {
    const [near] = InMemoryTransport.createLinkedPair();
    const endpointWire = new OutgoingWire(near, (m) => m);
    const closed: string[] = [];
    endpointWire.onclose = () => closed.push('endpoint');
    const serverWire = new OutgoingWire(endpointWire, (m) => m);
    serverWire.onclose = () => closed.push('server');
    await serverWire.close();
    expect(closed).toEqual(['endpoint', 'server']);
  });
});

describe('redactMessage (issue 32: one serialisation per message)', () => {
  const redactor = new Redactor(['gw-secret-7Hq2LmX9vB4nR8tK']);
  const clean: JSONRPCMessage = { jsonrpc: '2.0', id: 1, result: { text: 'nothing secret', n: [1, 2, 3] } };
  const leaking: JSONRPCMessage = { jsonrpc: '2.0', id: 2, result: { text: 'echo gw-secret-7Hq2LmX9vB4nR8tK' } };

  it.each([
    ['holds no secret', clean],
    ['held one', leaking],
  ])('serialises a message that %s once, for the filter and the transport together', async (_, message) => {
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const out = await redactMessage(redactor, message);
      const line = serialised(out);
      expect(stringify).toHaveBeenCalledTimes(1);
      expect(JSON.parse(line)).toEqual(out);
      expect(line).not.toContain('gw-secret');
    } finally {
      stringify.mockRestore();
    }
  });

  it('serialises a message the filter never saw when asked', () => {
    expect(serialised({ jsonrpc: '2.0', id: 3, result: {} })).toBe('{"jsonrpc":"2.0","id":3,"result":{}}');
  });
});
