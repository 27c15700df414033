/**
 * Nothing secret leaves by any channel (issue 28): an upstream that echoes credentials of other services in a 503
 * body (the retry warnings), in Deprecation and Sunset headers (the deprecation notice) and across the point where an
 * error excerpt is cut. Every message the client receives (results, errors, log notifications) and the server's
 * stderr are searched for every configured secret, and for any eight characters of one; in the 2026-07-28 era over
 * HTTP, in a 2025 HTTP session and over stdio.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startRecordingServer, type RecordingServer, type Reply } from '../helpers/recording-server.js';
import { spawnServer } from '../helpers/spawn-server.js';
import { connectClient, spawnHttpServer, type HttpServerProcess } from '../helpers/spawn-http.js';
import { postModern } from '../helpers/modern-post.js';
import { CREDENTIALS, SECRETS, fullEnv } from '../helpers/upstream.js';

const LANGUAGES = [{ language: 'thai', type: 'hanaterm', method: 'sgmt', option: '+thai' }];
/** The maps and studio keys: E14 (the call made) sends neither, yet one gateway serves all. */
const ECHOED = `${CREDENTIALS.SVC_CLIENT_SECRET} ${CREDENTIALS.SVC_STUDIO_API_KEY}`;

/** Any eight characters in a row of any secret: what a cut made before redaction would leave. */
function leaks(text: string): string[] {
  const found: string[] = [];
  for (const secret of SECRETS)
    for (let i = 0; i + 8 <= secret.length; i++) if (text.includes(secret.slice(i, i + 8))) found.push(secret);
  return [...new Set(found)];
}

let upstream: RecordingServer;
let answered = 0;

beforeAll(async () => {
  upstream = await startRecordingServer();
});
afterAll(() => upstream?.close());

/** E14 answers 503 echoing other services' keys, then its list with Deprecation and Sunset naming them too. */
beforeEach(() => {
  upstream.reset();
  answered = 0;
  upstream.setFallback((req): Reply => {
    if (req.url.startsWith('/api/v1/products')) {
      // The studio key straddles character 300, where the error excerpt is cut.
      return { status: 400, headers: { 'content-type': 'text/plain' }, body: `${'x'.repeat(290)} ${ECHOED} tail` };
    }
    answered += 1;
    if (answered === 1) {
      return { status: 503, headers: { 'retry-after': '0' }, body: { error: { errorCode: '500', message: ECHOED } } };
    }
    return {
      headers: { deprecation: `@1 ${CREDENTIALS.SVC_STUDIO_API_KEY}`, sunset: CREDENTIALS.SVC_CLIENT_SECRET },
      body: LANGUAGES,
    };
  });
});

/** What every channel carried in one round: the retried call with its notes, and the cut error. */
function expectClean(everything: string, stderr: string) {
  expect(everything).toMatch(/attempt 2 of 3/); // the retry warning was sent
  expect(everything).toMatch(/deprecated/); // and the deprecation notice
  expect(everything).toMatch(/HTTP 400/); // and the error with its excerpt
  expect(leaks(everything)).toEqual([]);
  expect(leaks(stderr)).toEqual([]);
}

describe('2026-07-28 over HTTP', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await spawnHttpServer([], fullEnv(upstream.url));
  }, 30_000);
  afterAll(() => server?.stop());

  it('results, errors and log notifications carry no secret', async () => {
    const meta = { 'io.modelcontextprotocol/logLevel': 'debug' };
    const call = async (name: string, args: Record<string, unknown>) =>
      (await postModern(server.url, 'tools/call', { name, arguments: args }, { meta })).text;
    const everything = [await call('search_list_tokenizer_languages', {}), await call('apigateway_list_products', {})];
    expectClean(everything.join('\n'), server.stderr());
  });
});

describe('2025 session over HTTP', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await spawnHttpServer([], fullEnv(upstream.url));
  }, 30_000);
  afterAll(() => server?.stop());

  it('results, errors and log notifications carry no secret', async () => {
    const { client } = await connectClient(server.url);
    const notes: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void notes.push(n));
    await client.setLoggingLevel('debug');
    const results = [
      await client.callTool({ name: 'search_list_tokenizer_languages', arguments: {} }),
      await client.callTool({ name: 'apigateway_list_products', arguments: {} }),
    ];
    await client.close();
    expectClean(JSON.stringify([results, notes]), server.stderr());
  });
});

describe('2025 over stdio', () => {
  it('results, errors and log notifications carry no secret', async () => {
    const server = await spawnServer(fullEnv(upstream.url));
    const notes: unknown[] = [];
    server.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void notes.push(n));
    await server.client.setLoggingLevel('debug');
    const results = [
      await server.call('search_list_tokenizer_languages'),
      await server.call('apigateway_list_products'),
    ];
    await server.close();
    expectClean(JSON.stringify([results, notes]), server.stderr());
  });
});
