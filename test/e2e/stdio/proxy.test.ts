import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { spawnServer } from '../../helpers/spawn-server.js';
import { expectGatewaySignature, fullEnv } from '../../helpers/upstream.js';

/**
 * HTTP_PROXY / NO_PROXY, as the built server reads them: upstream calls go through the proxy (a CONNECT tunnel),
 * except to loopback. The upstream has a name that does not resolve, so only the proxy can reach it: the proxy
 * tunnels every CONNECT to the recording server.
 */
let upstream: RecordingServer;
let proxy: Server;
let proxyUrl: string;
const connects: string[] = [];
const sockets = new Set<Socket>();

beforeAll(async () => {
  upstream = await startRecordingServer();
  upstream.setFallback({ body: [{ language: 'thai', type: 'hanaterm', method: 'sgmt', option: '+thai' }] });
  proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req, client: Socket) => {
    connects.push(req.url ?? '');
    const tunnel = connect(upstream.port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      tunnel.pipe(client);
      client.pipe(tunnel);
    });
    for (const s of [client, tunnel]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => sockets.delete(s));
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => proxy.close(resolve));
  await upstream.close();
});

it('sends upstream calls through HTTP_PROXY, signed for the path the upstream sees', async () => {
  const origin = `http://upstream.invalid:${upstream.port}`;
  const server = await spawnServer(fullEnv(origin, { HTTP_PROXY: proxyUrl }));
  try {
    const result = await server.call('search_list_tokenizer_languages', {});
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(connects).toContain(`upstream.invalid:${upstream.port}`);
    const req = upstream.requests.at(-1)!;
    expect(req.url).toBe('/CloudSearch/real/v1/tokenizer');
    expect(req.headers.host).toBe(`upstream.invalid:${upstream.port}`);
    expectGatewaySignature(req);
  } finally {
    await server.close();
  }
});

it('never sends loopback calls through the proxy', async () => {
  connects.length = 0;
  const server = await spawnServer(fullEnv(upstream.url, { HTTP_PROXY: 'http://127.0.0.1:9' }));
  try {
    const result = await server.call('search_list_tokenizer_languages', {});
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(connects).toEqual([]);
  } finally {
    await server.close();
  }
});
