import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startRecordingServer, type RecordingServer } from './recording-server.js';
import { spawnServer, type SpawnedServer } from './spawn-server.js';
import { fullEnv } from './upstream.js';

/** The recording upstream and the built server over stdio of one test file, once its beforeAll has run. */
export interface RecordedStdio {
  readonly upstream: RecordingServer;
  readonly server: SpawnedServer;
}

/**
 * One recording upstream and the built server over stdio pointed at it (every service, every credential), for the
 * whole test file: started before its tests, closed after them, the upstream's record and replies cleared before
 * each test (unless a file's tests build on each other's).
 */
export function recordedStdio(
  env: (upstreamUrl: string) => Record<string, string> = fullEnv,
  { resetEachTest = true } = {},
): RecordedStdio {
  let upstream: RecordingServer | undefined;
  let server: SpawnedServer | undefined;
  beforeAll(async () => {
    upstream = await startRecordingServer();
    server = await spawnServer(env(upstream.url));
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });
  if (resetEachTest) beforeEach(() => upstream?.reset());
  return {
    get upstream() {
      if (!upstream) throw new Error('the recording upstream is not started yet (use it inside a test)');
      return upstream;
    },
    get server() {
      if (!server) throw new Error('the server is not started yet (use it inside a test)');
      return server;
    },
  };
}
