import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { spawnServer, textOf, type SpawnedServer } from '../../helpers/spawn-server.js';
import { fullEnv } from '../../helpers/upstream.js';
import { validAnswer } from '../../helpers/valid-answers.js';

/**
 * Robustness: every tool given values of every wrong kind for every argument (and a few malformed wholes) answers
 * with a tool error, never a crash, a hang or a protocol error; only calls that happen to be valid are sent.
 */
let upstream: RecordingServer;
let server: SpawnedServer;

beforeAll(async () => {
  upstream = await startRecordingServer();
  server = await spawnServer(fullEnv(upstream.url));
  upstream.setFallback(validAnswer);
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

const WRONG_VALUES: unknown[] = [
  null,
  true,
  -1.5,
  2 ** 64,
  '',
  '..',
  'x'.repeat(100_000),
  [],
  [1, 'a'],
  { nested: { deep: [] } },
];

it('answers every wrong value of every argument with a tool error, never a crash; only valid calls reach the upstream', async () => {
  let calls = 0;
  const accepted: string[] = [];
  for (const tool of server.tools) {
    const properties = Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>);
    for (const name of properties) {
      for (const value of WRONG_VALUES) {
        const result = await server.call(tool.name, { [name]: value });
        calls++;
        if (!result.isError) {
          // A value that happens to be valid (e.g. '' for productName), and no other argument is required.
          expect(
            ((tool.inputSchema.required ?? []) as string[]).filter((r) => r !== name),
            `${tool.name} ${name}`,
          ).toEqual([]);
          accepted.push(`${tool.name}.${name}`);
          continue;
        }
        expect(result.structuredContent).toBeUndefined();
        expect(textOf(result)).toMatch(/invalid arguments|failed/);
      }
    }
    const unknown = await server.call(tool.name, { unexpected: 1 });
    calls++;
    expect(unknown.isError, tool.name).toBe(true);
    expect(textOf(unknown)).toContain('unknown argument(s) "unexpected"');
  }
  expect(calls).toBeGreaterThan(500);
  // Only the calls that were valid reached the upstream, and the server still serves a good call.
  expect(upstream.requests).toHaveLength(accepted.length);
  upstream.setFallback({ body: [] });
  const good = await server.call('search_list_tokenizer_languages', {});
  expect(good.isError).toBeFalsy();
}, 60_000);

it('refuses a "__proto__" argument, naming it, where the SDK would have dropped it: nothing is sent', async () => {
  upstream.reset();
  await expect(
    server.call('streaming_list_server_images', JSON.parse('{"__proto__":{"generationCode":"G9"}}')),
  ).rejects.toThrow(/Invalid params: arguments\.__proto__: refused: a key that names an object's prototype/);
  expect(upstream.requests).toHaveLength(0);
});
