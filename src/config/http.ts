import { isLoopback } from '../util/loopback.js';
import { parseAddressOrBlock } from '../util/addresses.js';
import { envName, type WholeNumberEnvName } from './env-variables.js';
import { flagDefault, flagName, type Flags } from './flags.js';
import { oauthOptions } from './oauth.js';
import { ConfigError, MIN_TOKEN_LENGTH, integer, list, type Value } from './values.js';
import type { HttpOptions } from './types.js';

const AUTH_TOKEN = envName('SVC_MCP_AUTH_TOKEN');

/** The HTTP transport's options; over stdio only what every transport reads (the host check is HTTP's alone). */
export function httpOptions(
  flags: Flags,
  value: Value,
  wholeNumber: (name: WholeNumberEnvName) => number,
): HttpOptions {
  const host = flags.host ?? flagDefault('host');
  const authToken = value(AUTH_TOKEN);
  const oauth = flags.http
    ? oauthOptions(value, authToken !== undefined, wholeNumber('SVC_MCP_OAUTH_TIMEOUT_MS'))
    : undefined;
  if (flags.http && !isLoopback(host) && !authToken && !oauth) {
    throw new ConfigError(
      `refusing to bind ${host} (not loopback) without ${AUTH_TOKEN} or ${envName('SVC_MCP_OAUTH_ISSUER')} (OAuth)`,
    );
  }
  // On loopback too: a local reverse proxy brings the whole network there, and the failure back-off cannot tell its
  // clients apart (docs/http.md, Limits), so the token's length is what stands against guessing.
  if (flags.http && authToken !== undefined && authToken.length < MIN_TOKEN_LENGTH) {
    throw new ConfigError(
      `${AUTH_TOKEN} must be at least ${MIN_TOKEN_LENGTH} characters (it has ${authToken.length}): generate one with \`openssl rand -hex 32\``,
    );
  }
  const replicaName = envName('SVC_MCP_REPLICA_ID');
  const replicaId = value(replicaName);
  if (replicaId !== undefined && !/^[A-Za-z0-9-]{1,32}$/.test(replicaId)) {
    throw new ConfigError(`${replicaName} must be 1 to 32 letters, digits or "-", got "${replicaId}"`);
  }
  const proxiesName = envName('SVC_MCP_TRUSTED_PROXIES');
  const trustedProxies = list(value, proxiesName);
  const notAddress = trustedProxies?.find((entry) => !parseAddressOrBlock(entry));
  if (notAddress !== undefined) {
    throw new ConfigError(
      `${proxiesName}: "${notAddress}" is not an IP address or CIDR block (e.g. 127.0.0.1, 10.0.0.0/8, fd00::/8)`,
    );
  }
  return {
    host,
    port: integer(flags.port ?? flagDefault('port'), flagName('port'), 0, 65535),
    stateless: Boolean(flags.stateless),
    authToken,
    allowedHosts: list(value, 'SVC_MCP_ALLOWED_HOSTS'),
    allowedOrigins: list(value, 'SVC_MCP_ALLOWED_ORIGINS'),
    maxSessions: wholeNumber('SVC_MCP_MAX_SESSIONS'),
    maxSessionsPerClient: wholeNumber('SVC_MCP_MAX_SESSIONS_PER_CLIENT'),
    trustedProxies,
    sessionIdleMs: wholeNumber('SVC_MCP_SESSION_IDLE_MS'),
    maxBodyBytes: wholeNumber('SVC_MCP_MAX_BODY_BYTES'),
    requestTimeoutMs: wholeNumber('SVC_MCP_REQUEST_TIMEOUT_MS'),
    maxConnections: wholeNumber('SVC_MCP_MAX_CONNECTIONS'),
    maxUnreadBytes: wholeNumber('SVC_MCP_MAX_UNREAD_BYTES'),
    replicaId,
    ...(oauth ? { oauth } : {}),
  };
}
