import { describe, expect, it } from 'vitest';
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { OutgoingWire } from '../src/outgoing-wire.js';

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
