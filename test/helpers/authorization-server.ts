import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';

/**
 * A real authorization server on loopback: oidc-provider (a certified OpenID provider) issuing JWT access tokens
 * for one resource through client credentials. Each client is granted the scopes listed for it (asking for more
 * gets it no more: oidc-provider keeps the intersection).
 */
export interface AuthorizationServer {
  issuer: string;
  /** The provider's signing key, so that a test can mint tokens that differ from its own in one thing. */
  signingKey: KeyObject;
  kid: string;
  close(): Promise<void>;
}

export interface TestClient {
  id: string;
  secret: string;
  scopes: string;
  /** More claims of this client's access tokens, e.g. `groups` (as Keycloak's group mapper adds them). */
  claims?: Record<string, unknown>;
}

/** An access token from the server's token endpoint, as a client would get it (client credentials, this resource). */
export async function tokenFrom(
  as: Pick<AuthorizationServer, 'issuer'>,
  client: Pick<TestClient, 'id' | 'secret'>,
  resource: string,
  scope = 'svc.read',
): Promise<string> {
  const answer = await fetch(`${as.issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }),
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

export async function startAuthorizationServer(
  resource: string,
  clients: readonly TestClient[],
  options: { ttlSeconds?: number } = {},
): Promise<AuthorizationServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The provider's signing key, made for this run.
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signing = { ...privateKey.export({ format: 'jwk' }), kid: 'test-es256', alg: 'ES256', use: 'sig' };
  const scopesOf = new Map(clients.map((c) => [c.id, c.scopes]));
  const claimsOf = new Map(clients.map((c) => [c.id, c.claims]));
  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      client_id: c.id,
      client_secret: c.secret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'ES256',
    })),
    jwks: { keys: [signing] },
    extraTokenClaims: (_ctx: unknown, token: { clientId?: string }) => claimsOf.get(token.clientId ?? '') ?? {},
    // Client credentials use no cookie; keys only keep the provider from warning about their absence.
    cookies: { keys: ['svc-platform-mcp-test-cookie-key'] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        getResourceServerInfo: (_ctx: unknown, indicator: string, client: { clientId: string }) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: scopesOf.get(client.clientId) ?? '',
            audience: resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: options.ttlSeconds ?? 600,
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    signingKey: privateKey,
    kid: signing.kid,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
