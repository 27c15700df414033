import { SANDBOX_CREDENTIALS } from './credentials.js';
import { createFaults, type FaultController } from './faults.js';
import { listen } from './http-server.js';
import { createRequestLog, type RequestLog } from './request-log.js';
import { routeKey } from './router.js';
import { allRoutes } from './routes.js';
import type { SandboxCredentials } from './types.js';

export interface SandboxOptions {
  /** Default 127.0.0.1: the sandbox is for this machine only. */
  host?: string;
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Epoch milliseconds; the signature window and the dates the services write use it. Default Date.now. */
  now?: () => number;
  /** One line per request (method, path, status, time); never headers, queries or bodies. */
  log?: (line: string) => void;
  /** The account it accepts; by default the published demo credentials (a credential profile has its own). */
  credentials?: SandboxCredentials;
}

export interface Sandbox {
  /** Origin, e.g. http://127.0.0.1:41234; every service lives under it. */
  url: string;
  credentials: SandboxCredentials;
  /** Test-only fault injection. */
  faults: FaultController;
  /** What the sandbox received, newest last. */
  requests: RequestLog;
  close(): Promise<void>;
}

/** Starts the simulator of all fifteen operations on a loopback port, with fresh state. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const routes = allRoutes();
  const { controller, source } = createFaults(routes.map(routeKey));
  const requests = createRequestLog();
  const credentials = { ...(options.credentials ?? SANDBOX_CREDENTIALS) };
  const server = await listen({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    routes,
    credentials,
    now: options.now ?? Date.now,
    faults: source,
    record: requests.add,
    log: options.log,
  });
  return { url: server.url, credentials, faults: controller, requests, close: server.close };
}
