import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An authorization server on loopback that answers at once and then sends its document one byte at a time, a byte
 * every `everyMs`: the metadata, or (`trickle: 'jwks'`) only the key set. Each byte resets any idle timer, so only
 * an overall deadline ends the wait.
 */
export interface TricklingIssuer {
  issuer: string;
  /** Requests received, by path. */
  requests: string[];
  close(): Promise<void>;
}

export async function startTricklingIssuer(options: {
  trickle: 'metadata' | 'jwks';
  jwks?: object;
  everyMs?: number;
}): Promise<TricklingIssuer> {
  const requests: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const slowly = (res: ServerResponse, text: string) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    let at = 0;
    const timer = setInterval(() => {
      if (at >= text.length || res.destroyed) {
        clearInterval(timer);
        timers.delete(timer);
        return void res.end();
      }
      res.write(text[at]);
      at += 1;
    }, options.everyMs ?? 20);
    timers.add(timer);
  };
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const metadata = JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks`, padding: ' '.repeat(100_000) });
    if (req.url === '/.well-known/oauth-authorization-server') {
      if (options.trickle === 'metadata') return slowly(res, metadata);
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(metadata);
    }
    if (req.url === '/jwks') {
      const jwks = JSON.stringify({ ...(options.jwks ?? { keys: [] }), padding: ' '.repeat(100_000) });
      if (options.trickle === 'jwks') return slowly(res, jwks);
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(jwks);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    requests,
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
