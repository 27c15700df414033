import type { SandboxCredentials } from './types.js';

/**
 * The sandbox's fixed demo credentials. They open nothing but the sandbox, are the same on every machine, and
 * are published in docs/sandbox.md so that a newcomer (and `--sandbox`) can use them without an account.
 */
export const SANDBOX_CREDENTIALS: Readonly<SandboxCredentials> = Object.freeze({
  accessKey: 'sandbox-access-key',
  secretKey: 'sandbox-secret-key',
  clientId: 'sandbox-client-id',
  clientSecret: 'sandbox-client-secret',
  studioApiKey: 'sandbox-studio-api-key',
  studioGatewayKey: 'sandbox-studio-gateway-key',
});
