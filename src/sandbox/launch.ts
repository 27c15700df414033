import { SERVICES, type ServiceId } from '../catalogue/types.js';
import type { Config } from '../config.js';
import type { SandboxCredentials } from './types.js';

export { startSandbox } from './index.js';

/** Routes every service to the sandbox, with the sandbox's own demo credentials. */
export function sandboxConfig(config: Config, sandbox: { url: string; credentials: SandboxCredentials }): Config {
  const c = sandbox.credentials;
  const app = { clientId: c.clientId, clientSecret: c.clientSecret };
  return {
    ...config,
    sandbox: true,
    serviceUrls: Object.fromEntries(SERVICES.map((s) => [s, sandbox.url])) as Record<ServiceId, string>,
    credentials: {
      gateway: { accessKey: c.accessKey, secretKey: c.secretKey },
      appKeys: { translation: app, maps: app },
      studio: { apiKey: c.studioApiKey, gatewayKey: c.studioGatewayKey },
    },
  };
}
