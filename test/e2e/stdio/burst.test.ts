/**
 * Over stdio the only client is the pipeline that sent the calls: a burst of 400 concurrent calls waits its turn
 * and every call succeeds (the old admission refused three quarters of them with [busy]).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { spawnServer } from '../../helpers/spawn-server.js';
import { LANGUAGES, fullEnv } from '../../helpers/upstream.js';

let upstream: RecordingServer;
beforeAll(async () => {
  upstream = await startRecordingServer();
});
afterAll(() => upstream?.close());

it('400 concurrent calls, upstream answering in 20-200 ms: every call succeeds', async () => {
  let n = 0;
  upstream.setFallback(() => ({ status: 200, body: LANGUAGES, delayMs: 20 + ((n++ * 37) % 181) }));
  const server = await spawnServer(fullEnv(upstream.url));
  try {
    const results = await Promise.all(
      Array.from({ length: 400 }, () => server.call('search_list_tokenizer_languages')),
    );
    expect(results.filter((r) => r.isError).map((r) => JSON.stringify(r.content))).toEqual([]);
    expect(upstream.requests).toHaveLength(400);
  } finally {
    await server.close();
  }
}, 60_000);
