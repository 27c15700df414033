import type { Dispatcher } from 'undici';
import { SERVICES } from '../../src/catalogue/types.js';
import type { ExecutorDeps } from '../../src/call/attempts.js';
import { upstreamOf } from '../../src/upstream/http.js';

/** The executor's dependencies for in-process tests: every service at `origin`, test credentials, a fixed clock id. */
export function executorDeps(options: {
  origin: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
  random: () => number;
}): ExecutorDeps {
  return {
    config: {
      serviceUrls: Object.fromEntries(SERVICES.map((s) => [s, options.origin])),
      credentials: {
        gateway: { accessKey: 'AK', secretKey: 'SK' },
        appKeys: {},
        studio: { apiKey: 'studio', gatewayKey: 'gw' },
      },
      streamingRegion: 'KR',
      timeoutMs: options.timeoutMs,
      limits: {
        maxConcurrentCalls: 16,
        maxQueuedCalls: 64,
        maxResponseBytes: 1024 * 1024,
        maxResultBytes: 100_000,
        workflowTimeoutMs: 180_000,
      },
    },
    upstream: upstreamOf(options.dispatcher),
    now: () => Date.now(),
    requestId: () => 'req-1',
    random: options.random,
  };
}
