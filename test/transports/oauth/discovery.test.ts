/** Where an issuer's metadata is looked for, in the specification's order, and what of it is believed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { discoverIssuer, metadataUrls } from '../../../src/transports/oauth/discovery.js';
import { NotADocument, fetchJsonWith } from '../../../src/transports/oauth/fetch-json.js';

describe('metadataUrls', () => {
  it('inserts the path for RFC 8414 and OpenID Connect, then appends it for OpenID Connect', () => {
    expect(metadataUrls('https://sso.example.com/realms/platform')).toEqual([
      'https://sso.example.com/.well-known/oauth-authorization-server/realms/platform',
      'https://sso.example.com/.well-known/openid-configuration/realms/platform',
      'https://sso.example.com/realms/platform/.well-known/openid-configuration',
    ]);
  });

  it('has the two root documents for an issuer without a path (a trailing slash is no path)', () => {
    for (const issuer of ['https://auth.example.com', 'https://auth.example.com/']) {
      expect(metadataUrls(issuer)).toEqual([
        'https://auth.example.com/.well-known/oauth-authorization-server',
        'https://auth.example.com/.well-known/openid-configuration',
      ]);
    }
  });
});

describe('discoverIssuer', () => {
  const ISSUER = 'https://sso.example.com/realms/platform';
  /** Documents by URL; what is not listed answers 404. Records what was asked, in order. */
  const server = (documents: Record<string, object>) => {
    const asked: string[] = [];
    return {
      asked,
      fetchJson: async (url: string) => {
        asked.push(url);
        const document = documents[url];
        if (!document) throw new NotADocument('HTTP 404');
        return document;
      },
    };
  };
  const quiet = { signal: new AbortController().signal, log: () => {} };

  it('takes the first document that exists, in order', async () => {
    const urls = metadataUrls(ISSUER);
    const s = server({ [urls[2]!]: { issuer: ISSUER, jwks_uri: 'https://sso.example.com/certs' } });
    expect(await discoverIssuer(ISSUER, s.fetchJson, quiet)).toEqual({ jwksUri: 'https://sso.example.com/certs' });
    expect(s.asked).toEqual(urls);
    const first = server({
      [urls[0]!]: { issuer: ISSUER, jwks_uri: 'https://sso.example.com/rfc8414' },
      [urls[2]!]: { issuer: ISSUER, jwks_uri: 'https://sso.example.com/certs' },
    });
    expect(await discoverIssuer(ISSUER, first.fetchJson, quiet)).toEqual({
      jwksUri: 'https://sso.example.com/rfc8414',
    });
    expect(first.asked).toEqual([urls[0]]);
  });

  it('refuses a document of another issuer, one without jwks_uri, and an http jwks_uri off loopback', async () => {
    const url = metadataUrls(ISSUER)[0]!;
    const with_ = (doc: object) => discoverIssuer(ISSUER, server({ [url]: doc }).fetchJson, quiet);
    await expect(with_({ issuer: 'https://evil.example.com', jwks_uri: 'https://x/certs' })).rejects.toThrow(
      /another issuer/,
    );
    await expect(with_({ issuer: ISSUER })).rejects.toThrow(/no jwks_uri/);
    await expect(with_({ issuer: ISSUER, jwks_uri: 'http://sso.example.com/certs' })).rejects.toThrow(/not https/);
    await expect(discoverIssuer(ISSUER, server({}).fetchJson, quiet)).rejects.toThrow(
      /no authorization server metadata/,
    );
  });

  it('accepts http on loopback, for a local authorization server', async () => {
    const issuer = 'http://127.0.0.1:9000';
    const s = server({
      'http://127.0.0.1:9000/.well-known/openid-configuration': { issuer, jwks_uri: 'http://127.0.0.1:9000/jwks' },
    });
    expect(await discoverIssuer(issuer, s.fetchJson, quiet)).toEqual({ jwksUri: 'http://127.0.0.1:9000/jwks' });
  });
});

describe('discoverIssuer over HTTP', () => {
  let http: Server;
  let issuer: string;
  const agent = new Agent();
  beforeAll(async () => {
    http = createServer((req, res) => {
      if (req.url === '/.well-known/oauth-authorization-server/tenant') {
        res.writeHead(503, { 'content-type': 'text/plain' });
        return void res.end('maintenance');
      }
      if (req.url === '/.well-known/openid-configuration/tenant') {
        res.writeHead(302, { location: 'https://elsewhere.example.com/metadata' });
        return void res.end();
      }
      if (req.url === '/tenant/.well-known/openid-configuration') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}/tenant`;
  });
  afterAll(async () => {
    await agent.close();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  it('goes on past a 5xx and a redirect to the next location, and logs why it skipped each', async () => {
    const logged: object[] = [];
    const fetchJson = fetchJsonWith(async () => agent);
    const found = await discoverIssuer(issuer, fetchJson, {
      signal: AbortSignal.timeout(10_000),
      log: (entry) => logged.push(entry),
    });
    expect(found).toEqual({ jwksUri: `${issuer}/jwks` });
    const [rfc8414, oidcInserted] = metadataUrls(issuer);
    expect(logged).toEqual([
      { event: 'oauth_metadata_skipped', url: rfc8414, why: 'HTTP 503' },
      { event: 'oauth_metadata_skipped', url: oidcInserted, why: 'HTTP 302 (a redirect: not followed)' },
    ]);
  });
});
