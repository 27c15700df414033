import { isLoopback } from '../util/loopback.js';
import { envName } from './env-variables.js';
import { ConfigError, checkedUrl, type UrlRules, type Value } from './values.js';
import type { OAuthOptions } from './types.js';

const ISSUER = envName('SVC_MCP_OAUTH_ISSUER');
const PUBLIC_URL = envName('SVC_MCP_PUBLIC_URL');

/** Names a party and carries nothing. */
const BARE: UrlRules = {
  withQuery: 'must have no query, fragment or user info',
  withUserInfo: 'must have no query, fragment or user info',
};

/**
 * OAuth mode, when SVC_MCP_OAUTH_ISSUER is set: with SVC_MCP_PUBLIC_URL, and not beside a static token (a request
 * would not know which to check). The issuer is https, loopback aside: its keys decide who may call.
 */
export function oauthOptions(value: Value, withToken: boolean, timeoutMs: number): OAuthOptions | undefined {
  const issuer = value(ISSUER);
  const publicUrl = value(PUBLIC_URL);
  if (issuer === undefined) {
    if (publicUrl !== undefined) throw new ConfigError(`${PUBLIC_URL} is set without ${ISSUER}`);
    return undefined;
  }
  if (withToken)
    throw new ConfigError(`${ISSUER} and ${envName('SVC_MCP_AUTH_TOKEN')} exclude each other: set one of them`);
  if (publicUrl === undefined)
    throw new ConfigError(`${ISSUER} needs ${PUBLIC_URL} (the MCP endpoint's URL as clients reach it)`);
  const issuerUrl = checkedUrl(ISSUER, issuer, BARE);
  if (issuerUrl.protocol !== 'https:' && !(issuerUrl.protocol === 'http:' && isLoopback(issuerUrl.hostname)))
    throw new ConfigError(`${ISSUER} must be an https URL (http only on loopback)`);
  checkedUrl(PUBLIC_URL, publicUrl, { ...BARE, notHttp: 'must be an http(s) URL' });
  // Both are kept as written: the issuer is compared with each token's `iss` exactly (RFC 8414), and clients compare
  // the metadata's `resource` with the URL they were given.
  return { issuer, publicUrl, timeoutMs };
}
