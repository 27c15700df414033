/**
 * Hostile request shapes over HTTP, in both eras (issue 28): a request thousands of levels deep is an invalid request,
 * never HTTP 500; a key that names an object's prototype in the arguments is refused by name, never silently dropped.
 * Nothing reaches the upstream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { envelope, postModern } from '../../helpers/modern-post.js';
import { spawnHttpServer, waitFor, type HttpServerProcess } from '../../helpers/spawn-http.js';
import { fullEnv } from '../../helpers/upstream.js';

let upstream: RecordingServer;
let server: HttpServerProcess;

beforeAll(async () => {
  upstream = await startRecordingServer();
  server = await spawnHttpServer(['--stateless'], fullEnv(upstream.url));
}, 30_000);
afterAll(async () => {
  await server?.stop();
  await upstream?.close();
});

/** A tools/call whose `arguments` are given as JSON text, in either era. */
async function call(era: '2025' | '2026', argumentsJson: string) {
  const modern = era === '2026';
  const meta = modern ? `,"_meta":${JSON.stringify(envelope())}` : '';
  const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_update_schema","arguments":${argumentsJson}${meta}}}`;
  const headers = modern
    ? {}
    : { 'mcp-protocol-version': '2025-11-25', 'mcp-method': undefined, 'mcp-name': undefined };
  const { status, text } = await postModern(
    server.url,
    'tools/call',
    { name: 'search_update_schema' },
    { body, headers },
  );
  return { status, body: text.slice(0, 2_000) };
}

for (const era of ['2025', '2026'] as const) {
  describe(`${era} era`, () => {
    it('answers 5,000 levels of nesting as an invalid request, not a server error', async () => {
      const deep = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
      const answer = await call(era, `{"name":"d","document":${deep}}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatch(/"code":-32600/);
      expect(answer.body).toMatch(/nested deeper than 256 levels/);
      expect(upstream.requests).toHaveLength(0);
    });

    it('refuses a __proto__ key in the arguments by name', async () => {
      const answer = await call(era, '{"__proto__":{"x":1},"name":"d","document":{}}');
      expect(answer.status).toBe(400);
      expect(answer.body).toMatch(/"code":-32602/);
      expect(answer.body).toMatch(/arguments\.__proto__: refused/);
      expect(upstream.requests).toHaveLength(0);
    });
  });
}

it('logs no value the client chose in its headers when the SDK refuses them', async () => {
  const chosen = 'client-chosen-Q7vX2';
  const response = await postModern(
    server.url,
    'tools/call',
    { name: 'search_list_tokenizer_languages', arguments: {} },
    { headers: { 'mcp-name': `${chosen}-name` } },
  );
  expect(response.status).toBe(400);
  await waitFor(() => server.stderr().includes('"event":"http_mcp_error"'), 10_000, 'the error line');
  expect(server.stderr()).not.toContain(chosen);
});
