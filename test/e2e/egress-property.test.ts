/**
 * Nothing secret leaves by any channel (issue 28), as a seeded property test: the server runs with credentials drawn
 * at random, and an upstream echoes, for each round, one of them spelled through one to three random encodings (the
 * redactor's own property test draws them the same way: test/helpers/spellings.ts): in the 503 body a retry warning
 * quotes, in the Deprecation header the notice quotes (when the spelling can be a header), in a string of a JSON answer
 * (the result), and across the point where an error excerpt is cut (the error). Every string the client receives
 * (results, errors, log notifications) and the server's stderr, read back the way the secret was spelled, holds neither
 * the secret nor its first or last MIN_PART characters. Over stdio and in a 2025 HTTP session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { MIN_PART } from '../../src/util/redact.js';
import { startRecordingServer, type RecordingServer, type Reply } from '../helpers/recording-server.js';
import { spawnServer, type SpawnedServer } from '../helpers/spawn-server.js';
import { connectClient, spawnHttpServer, type HttpServerProcess } from '../helpers/spawn-http.js';
import { decodeAll, pick, randomSecret, seeded, spell, type Encoding } from '../helpers/spellings.js';
import { CREDENTIALS, fullEnv } from '../helpers/upstream.js';

const random = seeded(2811);
/** The credentials of every service, drawn at random (of the characters an environment variable carries as is). */
const secretOf = () => randomSecret(random).replace(/["\\%&#:]/g, () => pick(random, ['+', '/', '=', '_', '-']));
const SECRET_NAMES = [
  'SVC_SECRET_KEY',
  'SVC_CLIENT_SECRET',
  'SVC_TRANSLATION_CLIENT_SECRET',
  'SVC_STUDIO_API_KEY',
  'SVC_STUDIO_GATEWAY_KEY',
] as const;
const drawn = Object.fromEntries(SECRET_NAMES.map((name) => [name, secretOf()])) as Record<string, string>;
const SECRETS = Object.values(drawn);
const env = (gateway: string) => fullEnv(gateway, drawn);

/** One round: a secret and its spelling, kept only when the test's own decoders read the secret back from it. */
interface Round {
  secret: string;
  layers: Encoding[];
  text: string;
}
function drawRounds(count: number): Round[] {
  const rounds: Round[] = [];
  while (rounds.length < count) {
    const secret = pick(random, SECRETS);
    const { layers, text } = spell(random, secret);
    if (decodeAll(text, layers).toLowerCase().includes(secret.toLowerCase())) rounds.push({ secret, layers, text });
  }
  return rounds;
}

/** What Node lets a header value be. */
const headerSafe = (text: string) => !/[^\t\x20-\x7e\x80-\xff]/.test(text);

/** E14 answers 503 quoting the spelling, then its list holding it (and Deprecation naming it); E7 a cut error. */
function echo(upstream: RecordingServer, round: Round): void {
  let tokenizer = 0;
  upstream.reset();
  upstream.setFallback((req): Reply => {
    if (req.url.startsWith('/api/v1/products')) {
      return { status: 400, headers: { 'content-type': 'text/plain' }, body: `${'x'.repeat(290)} ${round.text} tail` };
    }
    tokenizer += 1;
    if (tokenizer === 1) {
      return {
        status: 503,
        headers: { 'retry-after': '0' },
        body: { error: { errorCode: '500', message: round.text } },
      };
    }
    return {
      headers: headerSafe(round.text) ? { deprecation: round.text } : {},
      body: [{ language: 'thai', type: 'hanaterm', method: 'sgmt', option: round.text }],
    };
  });
}

/** Every string in a value the client received, as it received it (no JSON escaping added). */
function strings(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, into);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) strings(item, into);
  return into;
}

/** Neither the secret nor its first or last MIN_PART characters, in anything read back the way it was spelled. */
function expectNoSecret(received: string[], round: Round): void {
  const names = round.layers.map((layer) => layer.name).join(' of ');
  const secret = round.secret.toLowerCase();
  for (const text of received) {
    const decoded = decodeAll(text, round.layers).toLowerCase();
    for (const piece of [secret, secret.slice(0, MIN_PART), secret.slice(-MIN_PART)]) {
      expect(decoded, `${names}: ${JSON.stringify(text).slice(0, 400)}`).not.toContain(piece);
    }
  }
}

/** The two calls of a round through one client, and every string they brought back. */
async function round(client: ClientV1, notes: unknown[]): Promise<string[]> {
  notes.length = 0;
  const results = [
    await client.callTool({ name: 'search_list_tokenizer_languages', arguments: {} }),
    await client.callTool({ name: 'apigateway_list_products', arguments: {} }),
  ];
  // The rounds ran for real: the retry warning, and the spelling itself in the answer when it came back whole.
  expect(JSON.stringify(notes)).toMatch(/attempt 2 of 3/);
  return strings([results, notes]);
}

let upstream: RecordingServer;
beforeAll(async () => {
  upstream = await startRecordingServer();
});
afterAll(() => upstream?.close());

describe('random spellings of random secrets, over stdio (2025)', () => {
  const rounds = drawRounds(16);
  let server: SpawnedServer;
  let client: ClientV1;
  const notes: unknown[] = [];
  beforeAll(async () => {
    server = await spawnServer(env(upstream.url));
    client = server.client;
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void notes.push(n));
    await client.setLoggingLevel('debug');
  }, 30_000);
  afterAll(() => server?.close());

  it.each(rounds.map((r, i) => ({ i, ...r })))('round $i', async (r) => {
    echo(upstream, r);
    const before = server.stderr().length;
    const received = await round(client, notes);
    expectNoSecret([...received, server.stderr().slice(before)], r);
  });

  it('never names a configured credential in stderr, spelled as it is', () => {
    const stderr = server.stderr();
    for (const secret of SECRETS) expect(stderr).not.toContain(secret);
    expect(stderr).not.toContain(CREDENTIALS.SVC_SECRET_KEY); // the drawn ones replaced the fixed ones
  });
});

describe('random spellings of random secrets, in a 2025 HTTP session', () => {
  const rounds = drawRounds(16);
  let server: HttpServerProcess;
  let client: ClientV1;
  const notes: unknown[] = [];
  beforeAll(async () => {
    server = await spawnHttpServer([], env(upstream.url));
    client = (await connectClient(server.url)).client as unknown as ClientV1;
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void notes.push(n));
    await client.setLoggingLevel('debug');
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it.each(rounds.map((r, i) => ({ i, ...r })))('round $i', async (r) => {
    echo(upstream, r);
    const before = server.stderr().length;
    const received = await round(client, notes);
    expectNoSecret([...received, server.stderr().slice(before)], r);
  });
});
