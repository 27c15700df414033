import type { AuthScheme, ServiceId } from '../catalogue/types.js';
import type { Config } from '../config/index.js';
import { KEY_PAIRS, serviceUrlVariable, type EnvName } from '../config/env-variables.js';
import type { Credential } from './auth.js';
import { CallFailure } from './failure.js';

const GATEWAY_URL: EnvName = 'SVC_GATEWAY_URL';
const both = ([a, b]: readonly [EnvName, EnvName]) => `${a} and ${b}`;

/** Variables that configure each scheme, for "not configured" errors. */
function variablesFor(scheme: AuthScheme, service: ServiceId): string {
  switch (scheme) {
    case 'gateway-signature':
      return both(KEY_PAIRS.gateway);
    case 'app-key-upper':
    case 'app-key-lower':
      return `${both(KEY_PAIRS.app)} (or ${both(KEY_PAIRS[service as 'translation' | 'maps'])})`;
    case 'studio':
      return both(KEY_PAIRS.studio);
  }
}

/** The origin and credential of one operation, or a failure naming the variables to set. */
export function resolveTarget(
  config: Pick<Config, 'serviceUrls' | 'credentials'>,
  service: ServiceId,
  scheme: AuthScheme,
): { baseUrl: string; credential: Credential } {
  const baseUrl = config.serviceUrls[service];
  const credential = credentialFor(config.credentials, service, scheme);
  const missing: string[] = [];
  if (!baseUrl) missing.push(`${serviceUrlVariable(service)} or ${GATEWAY_URL}`);
  if (!credential) missing.push(variablesFor(scheme, service));
  if (!baseUrl || !credential) {
    throw new CallFailure(
      'not_configured',
      `the ${service} service is not configured: set ${missing.join(', and ')} in the server's environment ` +
        '(or start the server with --sandbox to try it against the embedded simulator)',
    );
  }
  return { baseUrl, credential };
}

function credentialFor(
  credentials: Config['credentials'],
  service: ServiceId,
  scheme: AuthScheme,
): Credential | undefined {
  switch (scheme) {
    case 'gateway-signature':
      return credentials.gateway && { scheme, keys: credentials.gateway };
    case 'app-key-upper':
    case 'app-key-lower': {
      const keys = credentials.appKeys[service as 'translation' | 'maps'];
      return keys && { scheme, keys };
    }
    case 'studio':
      return credentials.studio && { scheme, keys: credentials.studio };
  }
}
