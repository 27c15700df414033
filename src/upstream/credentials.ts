import type { AuthScheme, ServiceId } from '../catalogue/types.js';
import { CallFailure } from '../failures.js';
import type { Credential } from './auth.js';
import type { ClientSettings } from './settings.js';

/** The origin and credential of one operation, or a failure naming the settings to give. */
export function resolveTarget(
  settings: Pick<ClientSettings, 'serviceUrls' | 'credentials' | 'words'>,
  service: ServiceId,
  scheme: AuthScheme,
): { baseUrl: string; credential: Credential } {
  const baseUrl = settings.serviceUrls[service];
  const credential = credentialFor(settings.credentials, service, scheme);
  const { words } = settings;
  const missing: string[] = [];
  if (!baseUrl) missing.push(words.serviceUrl(service));
  if (!credential) missing.push(words.keys(scheme, service));
  if (!baseUrl || !credential) {
    throw new CallFailure(
      'not_configured',
      `the ${service} service is not configured: set ${missing.join(', and ')} in the server's environment` +
        (words.otherwise ? ` (or ${words.otherwise})` : ''),
    );
  }
  return { baseUrl, credential };
}

function credentialFor(
  credentials: ClientSettings['credentials'],
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
