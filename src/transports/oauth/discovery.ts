import { isLoopback } from '../../util/loopback.js';

/**
 * Where an issuer's metadata may be, in the order the MCP authorization specification gives clients: RFC 8414 with
 * the issuer's path inserted after the well-known prefix, OpenID Connect Discovery inserted the same way, then
 * OpenID Connect Discovery appended to the issuer (Keycloak, Okta, Entra ID publish this one). An issuer without
 * a path has the two well-known documents at its root.
 */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  const at = (p: string) => new URL(p, url.origin).href;
  if (path === '') return [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')];
  return [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
}

/** What a resource server needs of the metadata. */
export interface IssuerMetadata {
  jwksUri: string;
}

/** Gets a JSON document; undefined for a 4xx (not there), throws when the server cannot be reached or fails. */
export type FetchJson = (url: string) => Promise<unknown>;

/**
 * The issuer's metadata: the first of the documents above that exists. It must name the same issuer (RFC 8414
 * 3.3, OpenID Connect Discovery 4.3): a document for another issuer is a mix-up, never used. Its `jwks_uri` must be
 * https, as the issuer is (loopback aside).
 */
export async function discoverIssuer(issuer: string, fetchJson: FetchJson): Promise<IssuerMetadata> {
  const tried: string[] = [];
  for (const url of metadataUrls(issuer)) {
    const document = (await fetchJson(url)) as Record<string, unknown> | undefined;
    if (document === undefined) {
      tried.push(url);
      continue;
    }
    if (document.issuer !== issuer) throw new Error(`the metadata at ${url} is for another issuer`);
    const jwksUri = document.jwks_uri;
    if (typeof jwksUri !== 'string') throw new Error(`the metadata at ${url} has no jwks_uri`);
    if (!secureUrl(jwksUri)) throw new Error(`the jwks_uri of ${url} is not https`);
    return { jwksUri };
  }
  throw new Error(`no authorization server metadata found (tried ${tried.join(', ')})`);
}

/** https, or http on loopback (a local authorization server, as in tests and development). */
export function secureUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
  } catch {
    return false;
  }
}
