import { SERVICES, type ServiceId } from '../catalogue/types.js';
import { credentialsFrom, type Config } from '../config.js';
import type { SandboxCredentials } from './types.js';

export { startSandbox } from './index.js';

/**
 * Routes every service to the sandbox, with the sandbox's own demo credentials, read as the operator's would be
 * (their secrets join the operator's, which stay redacted too).
 */
export function sandboxConfig(config: Config, sandbox: { url: string; credentials: SandboxCredentials }): Config {
  const c = sandbox.credentials;
  const { credentials, secrets } = credentialsFrom({
    SVC_ACCESS_KEY: c.accessKey,
    SVC_SECRET_KEY: c.secretKey,
    SVC_CLIENT_ID: c.clientId,
    SVC_CLIENT_SECRET: c.clientSecret,
    SVC_STUDIO_API_KEY: c.studioApiKey,
    SVC_STUDIO_GATEWAY_KEY: c.studioGatewayKey,
  });
  return {
    ...config,
    sandbox: true,
    serviceUrls: Object.fromEntries(SERVICES.map((s) => [s, sandbox.url])) as Record<ServiceId, string>,
    credentials,
    secrets: [...config.secrets, ...secrets],
  };
}
