import type { AuthScheme, ServiceId } from '../catalogue/types.js';
import { KEY_PAIRS, envName, serviceUrlVariable, type EnvName } from './env-variables.js';
import { flagName } from './flags.js';

const both = ([a, b]: readonly [EnvName, EnvName]) => `${a} and ${b}`;

/**
 * The platform client's settings as the one who runs the server names them: the variables (and the flag) its
 * messages tell them to set. The client's own settings type says what each word stands for.
 */
export const SETTING_WORDS = {
  timeout: envName('SVC_TIMEOUT_MS'),
  maxResponseBytes: envName('SVC_MAX_RESPONSE_BYTES'),
  serviceUrl: (service: ServiceId) => `${serviceUrlVariable(service)} or ${envName('SVC_GATEWAY_URL')}`,
  keys(scheme: AuthScheme, service: ServiceId): string {
    switch (scheme) {
      case 'gateway-signature':
        return both(KEY_PAIRS.gateway);
      case 'app-key-upper':
      case 'app-key-lower':
        return `${both(KEY_PAIRS.app)} (or ${both(KEY_PAIRS[service as 'translation' | 'maps'])})`;
      case 'studio':
        return both(KEY_PAIRS.studio);
    }
  },
  otherwise: `start the server with ${flagName('sandbox')} to try it against the embedded simulator`,
};
