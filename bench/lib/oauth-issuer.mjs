// An authorization server reduced to what a resource server reads (docs/oauth.md): RFC 8414 metadata and a JWKS on
// loopback, and access tokens (RFC 9068, `typ` at+jwt) minted with node:crypto, so that the bench shares no code with
// the verifier it measures. test/helpers/authorization-server.ts is the full one (oidc-provider) for the tests.
import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer } from 'node:http';

const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function startIssuer() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = 'bench-1';
  const jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' }] };
  const server = createServer((req, res) => {
    const body =
      req.url === '/.well-known/oauth-authorization-server'
        ? { issuer, jwks_uri: `${issuer}/jwks`, response_types_supported: ['code'] }
        : req.url === '/jwks'
          ? jwks
          : undefined;
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: 'not found' }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  return {
    issuer,
    /** An ES256 access token of this issuer for `audience`, valid for an hour. */
    mint(audience, { sub = 'bench-user', scope = 'svc.read' } = {}) {
      const now = Math.floor(Date.now() / 1000);
      const payload = { iss: issuer, aud: audience, sub, client_id: 'bench', scope, iat: now, exp: now + 3600 };
      const input = `${b64({ alg: 'ES256', typ: 'at+jwt', kid })}.${b64(payload)}`;
      const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
      return `${input}.${signature.toString('base64url')}`;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
