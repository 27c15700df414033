/**
 * The MCP Bundle with its optional settings left blank: a bundle host may pass `${user_config.<key>}` through as it
 * is. The server must treat such a value as unset, so that a call answers "not configured" naming the variables to
 * set, and nothing (least of all the placeholder as an access key) is sent.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { spawnServer, textOf, type SpawnedServer } from '../../helpers/spawn-server.js';

const manifest = JSON.parse(readFileSync(new URL('../../../manifest.json', import.meta.url), 'utf8')) as {
  server: { mcp_config: { env: Record<string, string> } };
};

let upstream: RecordingServer;
let server: SpawnedServer;

beforeAll(async () => {
  upstream = await startRecordingServer();
  // The environment the manifest maps, every placeholder left unresolved but the one setting it requires.
  const env: Record<string, string> = { ...manifest.server.mcp_config.env, SVC_GATEWAY_URL: upstream.url };
  expect(env.SVC_ACCESS_KEY).toBe('${user_config.access_key}');
  server = await spawnServer(env);
}, 30_000);

afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

it.each([
  ['search_list_tokenizer_languages', {}, 'SVC_ACCESS_KEY and SVC_SECRET_KEY'],
  [
    'translation_translate_text',
    { source: 'ko', target: 'en', text: '안녕' },
    'SVC_CLIENT_ID and SVC_CLIENT_SECRET (or SVC_TRANSLATION_CLIENT_ID and SVC_TRANSLATION_CLIENT_SECRET)',
  ],
  ['textgen_create_completion', { text: 'Hello' }, 'SVC_STUDIO_API_KEY and SVC_STUDIO_GATEWAY_KEY'],
])('%s answers [not_configured] naming what to set, and sends nothing', async (tool, args, variables) => {
  const result = await server.call(tool, args);
  expect(result.isError).toBe(true);
  expect(textOf(result)).toContain(`[not_configured]`);
  expect(textOf(result)).toContain(`is not configured: set ${variables} in the server's environment`);
  expect(textOf(result)).not.toContain('user_config');
  expect(upstream.requests).toEqual([]);
});
