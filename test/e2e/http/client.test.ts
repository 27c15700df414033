import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CATALOGUE } from '../../../src/catalogue/catalogue.js';
import {
  connectClient,
  rawRequest,
  spawnHttpServer,
  waitFor,
  type HttpServerProcess,
} from '../../helpers/spawn-http.js';

// The SDK Client over StreamableHTTPClientTransport against `--http --sandbox`, in both modes.

for (const mode of ['sessions', 'stateless'] as const) {
  describe(`--http --sandbox (${mode})`, () => {
    let server: HttpServerProcess;

    beforeAll(async () => {
      server = await spawnHttpServer(mode === 'stateless' ? ['--sandbox', '--stateless'] : ['--sandbox']);
    });
    afterAll(async () => {
      expect(await server.stop()).toBe(0);
    });

    it('prints the listening URL with the real port on stderr', () => {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(server.port).toBeGreaterThan(0);
      expect(server.stderr()).toContain(mode === 'stateless' ? '(stateless;' : '(sessions;');
    });

    it('lists and calls tools', async () => {
      const { client, transport } = await connectClient(server.url);
      if (mode === 'stateless') expect(transport.sessionId).toBeUndefined();
      else expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);

      const { tools } = await client.listTools();
      // The same tools as over stdio, from the same createServer: every catalogue operation at least.
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(CATALOGUE.map((op) => op.name)));

      const languages = (await client.callTool({
        name: 'search_list_tokenizer_languages',
        arguments: {},
      })) as CallToolResult;
      expect(languages.isError).toBeFalsy();
      expect(JSON.stringify(languages.structuredContent ?? languages.content)).toContain('language');

      const translated = (await client.callTool({
        name: 'translation_translate_text',
        arguments: { source: 'ko', target: 'en', text: '안녕하세요' },
      })) as CallToolResult;
      expect(translated.isError, JSON.stringify(translated.content)).toBeFalsy();
      expect(JSON.stringify(translated.structuredContent ?? translated.content)).toContain('translatedText');

      const refused = (await client.callTool({
        name: 'translation_translate_text',
        arguments: { source: 'ko', target: 'en' },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);

      if (mode === 'sessions') await transport.terminateSession();
      await client.close();
    });

    it('offers resources and prompts, and reads and gets them', async () => {
      const { client, transport } = await connectClient(server.url);
      expect(client.getServerCapabilities()).toMatchObject({ resources: {}, prompts: {} });
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(
        expect.arrayContaining(['svc://search/tokenizer-languages', 'svc://translation/language-pairs']),
      );
      const read = await client.readResource({ uri: 'svc://translation/language-pairs' });
      expect(read.contents.length).toBeGreaterThan(0);
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toContain('translate_and_summarize');
      const prompt = await client.getPrompt({
        name: 'translate_and_summarize',
        arguments: { text: 'Bonjour', target: 'en' },
      });
      expect(prompt.messages.length).toBeGreaterThan(0);
      if (mode === 'sessions') await transport.terminateSession();
      await client.close();
    });

    it('serves several clients at once, each with its own server', async () => {
      const clients = await Promise.all([1, 2, 3].map(() => connectClient(server.url)));
      const results = await Promise.all(
        clients.map(({ client }) => client.callTool({ name: 'search_list_tokenizer_languages', arguments: {} })),
      );
      for (const result of results) expect((result as CallToolResult).isError).toBeFalsy();
      if (mode === 'sessions') {
        const ids = new Set(clients.map(({ transport }) => transport.sessionId));
        expect(ids.size).toBe(3);
      }
      for (const { client, transport } of clients) {
        if (mode === 'sessions') await transport.terminateSession();
        await client.close();
      }
    });

    it('GET /healthz answers 200 {"status":"ok"} and nothing more', async () => {
      const res = await rawRequest(`${server.origin}/healthz`, { method: 'GET' });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
    });

    it('logs one JSON line per request, with the tool name but no argument values', async () => {
      const requestLines = () =>
        server
          .stderr()
          .split('\n')
          .filter((l) => l.startsWith('{"event":"http_request"'))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      await waitFor(() => requestLines().some((l) => l.path === '/healthz'), 5_000, 'the /healthz log line');
      const lines = requestLines();
      const call = lines.find((l) => l.tool === 'translation_translate_text');
      expect(call).toMatchObject({ method: 'POST', path: '/mcp', rpc: 'tools/call', status: 200 });
      expect(typeof call!.ms).toBe('number');
      expect(lines.some((l) => l.path === '/healthz' && l.status === 200)).toBe(true);
      expect(server.stderr()).not.toContain('안녕하세요');
    });

    if (mode === 'stateless') {
      it('has no standalone stream and no sessions: GET and DELETE /mcp get 405', async () => {
        for (const method of ['GET', 'DELETE']) {
          const res = await rawRequest(server.url, { method, headers: { Accept: 'text/event-stream' } });
          expect(res.status).toBe(405);
          expect(res.headers.allow).toBe('POST');
        }
      });
    } else {
      it('DELETE /mcp ends a session; the ended id then gets 404', async () => {
        const { client, transport } = await connectClient(server.url);
        const id = transport.sessionId!;
        await transport.terminateSession();
        await client.close();
        const res = await rawRequest(server.url, {
          headers: { 'Mcp-Session-Id': id },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
        });
        expect(res.status).toBe(404);
        expect(JSON.parse(res.body)).toMatchObject({ error: { code: -32001 } });
      });
    }
  });
}
