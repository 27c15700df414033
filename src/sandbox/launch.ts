import { SERVICES, type ServiceId } from '../catalogue/types.js';
import { credentialsFrom, type Config, type EnvName, type Profile } from '../config/index.js';
import { SANDBOX_CREDENTIALS } from './credentials.js';
import { startSandbox, type Sandbox } from './sandbox.js';
import type { SandboxCredentials } from './types.js';

/**
 * Routes every service to the sandbox, with the sandbox's own demo credentials, read as the operator's would be
 * (their secrets join the operator's, which stay redacted too).
 */
export function sandboxConfig(config: Config, sandbox: { url: string; credentials: SandboxCredentials }): Config {
  const { secrets, ...platform } = sandboxPlatform(sandbox);
  return { ...config, sandbox: true, ...platform, secrets: [...config.secrets, ...secrets] };
}

function sandboxPlatform(sandbox: { url: string; credentials: SandboxCredentials }) {
  const c = sandbox.credentials;
  const { credentials, secrets } = credentialsFrom({
    SVC_ACCESS_KEY: c.accessKey,
    SVC_SECRET_KEY: c.secretKey,
    SVC_CLIENT_ID: c.clientId,
    SVC_CLIENT_SECRET: c.clientSecret,
    SVC_STUDIO_API_KEY: c.studioApiKey,
    SVC_STUDIO_GATEWAY_KEY: c.studioGatewayKey,
  } satisfies Partial<Record<EnvName, string>>);
  return {
    serviceUrls: Object.fromEntries(SERVICES.map((s) => [s, sandbox.url])) as Record<ServiceId, string>,
    credentials,
    secrets,
  };
}

/** A profile's own sandbox account: the demo credentials with the profile's name in each. */
function sandboxCredentialsOf(profile: string): SandboxCredentials {
  return Object.fromEntries(
    Object.entries(SANDBOX_CREDENTIALS).map(([key, value]) => [key, `${value}.${profile}`]),
  ) as unknown as SandboxCredentials;
}

/**
 * The sandbox of `--sandbox`: one simulator; with credential profiles, one per profile in use (an account of its own,
 * with its own state), so that two teams' data stay apart in a demo as on the platform.
 */
export async function startSandboxes(
  config: Config,
): Promise<{ config: Config; urls: string[]; close: () => Promise<void> }> {
  const started: Sandbox[] = [];
  const close = async () => {
    await Promise.all(started.map((s) => s.close()));
  };
  const start = async (credentials?: SandboxCredentials) => {
    const sandbox = await startSandbox(credentials ? { credentials } : {});
    started.push(sandbox);
    return sandbox;
  };
  try {
    const profiles = config.profiles;
    if (!profiles) {
      const sandbox = await start();
      return { config: sandboxConfig(config, sandbox), urls: [sandbox.url], close };
    }
    if (config.profile !== undefined) {
      // One profile for the process: its account alone.
      const sandbox = await start(sandboxCredentialsOf(config.profile));
      return { config: sandboxConfig(config, sandbox), urls: [sandbox.url], close };
    }
    // OAuth mode: every profile a token may pick.
    const secrets: string[] = [];
    const byName = new Map<string, Profile>();
    for (const profile of profiles.byName.values()) {
      const { secrets: own, ...platform } = sandboxPlatform(await start(sandboxCredentialsOf(profile.name)));
      secrets.push(...own);
      byName.set(profile.name, {
        ...profile,
        platform: { ...platform, streamingRegion: profile.platform.streamingRegion },
      });
    }
    const sandboxed = { ...profiles, byName, secrets: [...profiles.secrets, ...secrets] };
    const oauth = config.http.oauth && { ...config.http.oauth, profiles: sandboxed };
    return {
      config: {
        ...config,
        sandbox: true,
        profiles: sandboxed,
        http: { ...config.http, ...(oauth ? { oauth } : {}) },
        secrets: [...config.secrets, ...secrets],
      },
      urls: started.map((s) => s.url),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
