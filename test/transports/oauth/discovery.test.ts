/** Where an issuer's metadata is looked for, in the specification's order, and what of it is believed. */
import { describe, expect, it } from 'vitest';
import { discoverIssuer, metadataUrls } from '../../../src/transports/oauth/discovery.js';

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
  /** Documents by URL; what is not listed answers 404 (undefined). Records what was asked, in order. */
  const server = (documents: Record<string, object>) => {
    const asked: string[] = [];
    return {
      asked,
      fetchJson: async (url: string) => {
        asked.push(url);
        return documents[url];
      },
    };
  };

  it('takes the first document that exists, in order', async () => {
    const urls = metadataUrls(ISSUER);
    const s = server({ [urls[2]!]: { issuer: ISSUER, jwks_uri: 'https://sso.example.com/certs' } });
    expect(await discoverIssuer(ISSUER, s.fetchJson)).toEqual({ jwksUri: 'https://sso.example.com/certs' });
    expect(s.asked).toEqual(urls);
    const first = server({
      [urls[0]!]: { issuer: ISSUER, jwks_uri: 'https://sso.example.com/rfc8414' },
      [urls[2]!]: { issuer: ISSUER, jwks_uri: 'https://sso.example.com/certs' },
    });
    expect(await discoverIssuer(ISSUER, first.fetchJson)).toEqual({ jwksUri: 'https://sso.example.com/rfc8414' });
    expect(first.asked).toEqual([urls[0]]);
  });

  it('refuses a document of another issuer, one without jwks_uri, and an http jwks_uri off loopback', async () => {
    const url = metadataUrls(ISSUER)[0]!;
    const with_ = (doc: object) => discoverIssuer(ISSUER, server({ [url]: doc }).fetchJson);
    await expect(with_({ issuer: 'https://evil.example.com', jwks_uri: 'https://x/certs' })).rejects.toThrow(
      /another issuer/,
    );
    await expect(with_({ issuer: ISSUER })).rejects.toThrow(/no jwks_uri/);
    await expect(with_({ issuer: ISSUER, jwks_uri: 'http://sso.example.com/certs' })).rejects.toThrow(/not https/);
    await expect(discoverIssuer(ISSUER, server({}).fetchJson)).rejects.toThrow(/no authorization server metadata/);
  });

  it('accepts http on loopback, for a local authorization server', async () => {
    const issuer = 'http://127.0.0.1:9000';
    const s = server({
      'http://127.0.0.1:9000/.well-known/openid-configuration': { issuer, jwks_uri: 'http://127.0.0.1:9000/jwks' },
    });
    expect(await discoverIssuer(issuer, s.fetchJson)).toEqual({ jwksUri: 'http://127.0.0.1:9000/jwks' });
  });
});
