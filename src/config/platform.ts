import { SERVICES, type ServiceId } from '../catalogue/types.js';
import type { StreamingRegion } from '../catalogue/fields.js';
import { KEY_PAIRS, envDefault, envName, serviceUrlVariable, type EnvName } from './env-variables.js';
import { ConfigError, checkedUrl, oneOf, reader, type Value } from './values.js';
import type { Config, Credentials, Env, PlatformSettings } from './types.js';

/** The credentials of an environment and their secrets: the operator's, or the ones the sandbox gives itself. */
export function credentialsFrom(env: Env): Pick<Config, 'credentials' | 'secrets'> {
  const { value, secrets } = reader(env);
  const credentials = readCredentials(value);
  return { credentials, secrets: [...secrets] };
}

function readCredentials(value: Value): Credentials {
  const pair = ([a, b]: readonly [EnvName, EnvName]) => {
    const x = value(a);
    const y = value(b);
    if (Boolean(x) !== Boolean(y)) throw new ConfigError(`${x ? b : a} must be set together with ${x ? a : b}`);
    return x && y ? ([x, y] as const) : undefined;
  };
  const gateway = pair(KEY_PAIRS.gateway);
  const app = pair(KEY_PAIRS.app);
  const appFor = (service: 'translation' | 'maps') => {
    const own = pair(KEY_PAIRS[service]) ?? app;
    return own ? { clientId: own[0], clientSecret: own[1] } : undefined;
  };
  const studio = pair(KEY_PAIRS.studio);
  const appKeys: Credentials['appKeys'] = {};
  const translation = appFor('translation');
  const maps = appFor('maps');
  if (translation) appKeys.translation = translation;
  if (maps) appKeys.maps = maps;
  return {
    gateway: gateway && { accessKey: gateway[0], secretKey: gateway[1] },
    appKeys,
    studio: studio && { apiKey: studio[0], gatewayKey: studio[1] },
  };
}

export function readPlatform(value: Value): PlatformSettings {
  const serviceUrls: Partial<Record<ServiceId, string>> = {};
  const gateway = envName('SVC_GATEWAY_URL');
  const gatewayUrl = value(gateway);
  for (const service of SERVICES) {
    const name = serviceUrlVariable(service);
    const url = value(name) ?? gatewayUrl;
    if (url) serviceUrls[service] = parseOrigin(url, value(name) ? name : gateway);
  }
  const region = oneOf('SVC_STREAMING_REGION', value('SVC_STREAMING_REGION') ?? envDefault('SVC_STREAMING_REGION'));
  return { serviceUrls, credentials: readCredentials(value), streamingRegion: region as StreamingRegion };
}

/** The platform settings of an environment and the secrets among them (a credential profile's, see profiles.ts). */
export function platformFrom(env: Env): PlatformSettings & { secrets: string[] } {
  const { value, secrets } = reader(env);
  const platform = readPlatform(value);
  return { ...platform, secrets: [...secrets] };
}

/** A service URL is an origin, optionally with a path prefix for proxies; no query, no fragment. */
function parseOrigin(text: string, name: EnvName): string {
  const notOrigin = 'must be an origin with an optional path prefix (no query, fragment or user info; value not shown)';
  const url = checkedUrl(name, text, { notHttp: 'must be http(s)', withQuery: notOrigin, withUserInfo: notOrigin });
  return url.origin + url.pathname.replace(/\/+$/, '');
}
