import type { AuthScheme, ServiceId } from '../catalogue/types.js';
import type { Config } from '../config.js';
import type { Credential } from './auth.js';
import { ToolFailure } from './errors.js';

/** Variables that configure each scheme, for "not configured" errors. */
function variablesFor(scheme: AuthScheme, service: ServiceId): string {
  switch (scheme) {
    case 'gateway-signature':
      return 'SVC_ACCESS_KEY and SVC_SECRET_KEY';
    case 'app-key-upper':
    case 'app-key-lower': {
      const own = service.toUpperCase();
      return `SVC_CLIENT_ID and SVC_CLIENT_SECRET (or SVC_${own}_CLIENT_ID and SVC_${own}_CLIENT_SECRET)`;
    }
    case 'studio':
      return 'SVC_STUDIO_API_KEY and SVC_STUDIO_GATEWAY_KEY';
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
  if (!baseUrl) missing.push(`SVC_${service.toUpperCase()}_URL or SVC_GATEWAY_URL`);
  if (!credential) missing.push(variablesFor(scheme, service));
  if (!baseUrl || !credential) {
    throw new ToolFailure(
      'not_configured',
      `the ${service} service is not configured: set ${missing.join(', and ')} in the server's environment ` +
        '(or start the server with --sandbox to try it against the embedded simulator)',
    );
  }
  return { baseUrl, credential };
}

function credentialFor(credentials: Config['credentials'], service: ServiceId, scheme: AuthScheme): Credential | undefined {
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
