import { isLoopback } from '../../util/loopback.js';
import { NotADocument, type FetchJson } from './fetch-json.js';

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

/** Where a location was passed over, and why: the operator's clue when no metadata is found. */
export type SkipLog = (entry: { event: 'oauth_metadata_skipped'; url: string; why: string }) => void;

/**
 * The issuer's metadata: the first of the documents above that the server answers with. A location that answers
 * anything else (a 404, a 5xx, a redirect, a page that is no JSON object) is passed over, logged with why; a server
 * that cannot be reached or runs out of time ends the search (the other locations are on the same server). The
 * document must name the same issuer (RFC 8414 3.3, OpenID Connect Discovery 4.3): a document for another issuer is
 * a mix-up, never used. Its `jwks_uri` must be https, as the issuer is (loopback aside).
 */
export async function discoverIssuer(
  issuer: string,
  fetchJson: FetchJson,
  options: { signal: AbortSignal; log: SkipLog },
): Promise<IssuerMetadata> {
  const skipped: string[] = [];
  for (const url of metadataUrls(issuer)) {
    let document: Record<string, unknown>;
    try {
      document = (await fetchJson(url, options.signal)) as Record<string, unknown>;
    } catch (error) {
      if (!(error instanceof NotADocument)) throw error;
      options.log({ event: 'oauth_metadata_skipped', url, why: error.message });
      skipped.push(`${url}: ${error.message}`);
      continue;
    }
    if (document.issuer !== issuer) throw new Error(`the metadata at ${url} is for another issuer`);
    const jwksUri = document.jwks_uri;
    if (typeof jwksUri !== 'string') throw new Error(`the metadata at ${url} has no jwks_uri`);
    if (!secureUrl(jwksUri)) throw new Error(`the jwks_uri of ${url} is not https`);
    return { jwksUri };
  }
  throw new Error(`no authorization server metadata found (${skipped.join('; ')})`);
}

/** https, or http on loopback (a local authorization server, as in tests and development). */
function secureUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
  } catch {
    return false;
  }
}
