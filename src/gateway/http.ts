import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import type { Config } from '../config.js';

/** Loopback never goes through a proxy: the sandbox and local test servers live there. */
const LOOPBACK = 'localhost,127.0.0.1,::1';

/**
 * One dispatcher for every upstream: undici keeps a keep-alive pool per origin. Connect, header and body
 * timeouts are bounded by the call timeout; the executor also enforces one deadline per call.
 */
export function createDispatcher(config: Pick<Config, 'timeoutMs' | 'proxy'>): Dispatcher {
  const options = {
    connections: 32,
    keepAliveTimeout: 10_000,
    connect: { timeout: Math.min(config.timeoutMs, 10_000) },
    headersTimeout: config.timeoutMs,
    bodyTimeout: config.timeoutMs,
  };
  const { http, https, noProxy } = config.proxy;
  if (!http && !https) return new Agent(options);
  return new EnvHttpProxyAgent({
    ...options,
    httpProxy: http,
    httpsProxy: https ?? http,
    noProxy: noProxy ? `${noProxy},${LOOPBACK}` : LOOPBACK,
  });
}

/** Largest upstream answer we read; beyond it the call fails instead of exhausting memory. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
