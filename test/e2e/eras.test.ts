/**
 * Both protocol eras on every transport, driven by the three clients users have: the SDK v2 client pinned to
 * 2026-07-28, the SDK v2 client in its default (2025) mode, and the SDK v1 client. Each lists, calls, reads a
 * resource, gets a prompt and confirms a destructive call (a declined form sends nothing; an accepted one deletes
 * once), against the built server on the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI_PATH } from '../helpers/spawn-server.js';
import { spawnHttpServer, type HttpServerProcess } from '../helpers/spawn-http.js';

type Kind = 'v2-modern' | 'v2-legacy' | 'v1';
type Transport = 'stdio' | 'http' | 'stateless';
type Answer = { action: 'accept'; content: Record<string, string> } | { action: 'decline' } | { action: 'cancel' };

/** What the tests need of a client, whichever SDK made it. */
interface AnyClient {
  version(): string | undefined;
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: {
    name: string;
    arguments: Record<string, unknown>;
  }): Promise<{ content: unknown[]; isError?: boolean; structuredContent?: unknown }>;
  readResource(params: { uri: string }): Promise<{ contents: { text?: string }[] }>;
  getPrompt(params: { name: string; arguments: Record<string, string> }): Promise<{ messages: unknown[] }>;
  close(): Promise<void>;
}

const INFO = { name: 'eras-test', version: '0.0.0' };
const STDIO = {
  command: process.execPath,
  args: [CLI_PATH, '--sandbox'],
  env: { PATH: process.env.PATH ?? '' },
  stderr: 'pipe' as const,
};

/** Connects a client of the given kind; its forms are answered from `answers`, one per form, in order. */
async function connect(
  kind: Kind,
  transport: Transport,
  url: string | undefined,
  answers: Answer[],
  asked: string[],
): Promise<AnyClient> {
  const answer = (message: string): Answer => {
    asked.push(message);
    const next = answers.shift();
    if (!next) throw new Error('no answer left for a form');
    return next;
  };
  if (kind === 'v1') {
    const client = new ClientV1(INFO, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message));
    await client.connect(transport === 'stdio' ? new StdioV1(STDIO) : new HttpV1(new URL(url!)));
    return Object.assign(client, { version: () => '2025 (v1 client)' }) as unknown as AnyClient;
  }
  const client = new ClientV2(INFO, {
    capabilities: { elicitation: { form: {} } },
    ...(kind === 'v2-modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {}),
  });
  client.setRequestHandler('elicitation/create', (request) => answer((request.params as { message: string }).message));
  await client.connect(transport === 'stdio' ? new StdioV2(STDIO) : new HttpV2(new URL(url!)));
  return Object.assign(client, { version: () => client.getNegotiatedProtocolVersion() }) as unknown as AnyClient;
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;
const FIRST_TOOLS = ['streaming_list_config_groups', 'streaming_list_server_images', 'translation_translate_text'];

/** The whole round of one client: what every era on every transport must serve. */
async function round(kind: Kind, transport: Transport, url: string | undefined, serviceId: string): Promise<void> {
  const forms = transport !== 'stateless' || kind === 'v2-modern';
  const asked: string[] = [];
  const answers: Answer[] = [{ action: 'decline' }, { action: 'accept', content: { serviceId } }];
  const client = await connect(kind, transport, url, answers, asked);
  try {
    if (kind === 'v2-modern') expect(client.version()).toBe('2026-07-28');
    if (kind === 'v2-legacy') expect(client.version()).toBe('2025-11-25');

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).slice(0, 3)).toEqual(FIRST_TOOLS);
    expect(tools).toHaveLength(16);

    const schema = await client.callTool({
      name: 'recommendation_get_default_schema',
      arguments: { datasetType: 'item' },
    });
    expect(schema.isError, text(schema)).toBeFalsy();
    expect(schema.structuredContent).toMatchObject({ datasetType: 'item' });

    const resource = await client.readResource({ uri: 'svc://search/tokenizer-languages' });
    expect(resource.contents[0]!.text).toContain('korean');
    // Resource not found: -32602 in 2026-07-28, -32002 in the 2025 revisions (on the wire, as the v1 client shows;
    // the v2 client reports either as its ResourceNotFoundError, code -32602).
    const missing = (await client.readResource({ uri: 'svc://search/nothing' }).catch((error: unknown) => error)) as {
      code?: number;
    };
    expect(missing.code).toBe(kind === 'v1' ? -32002 : -32602);

    const prompt = await client.getPrompt({
      name: 'translate_and_summarize',
      arguments: { text: '안녕하세요.', target: 'en' },
    });
    expect(prompt.messages.length).toBeGreaterThan(0);

    const remove = (args: Record<string, unknown>) =>
      client.callTool({ name: 'recommendation_delete_service', arguments: { serviceId, ...args } });
    if (forms) {
      const declined = await remove({});
      expect(text(declined)).toMatch(/\[not_confirmed\]: the user declined\. Nothing was sent\./);
      const accepted = await remove({});
      expect(accepted.isError, text(accepted)).toBeFalsy();
      expect(text(accepted)).toContain(`${serviceId}`);
      expect(asked).toHaveLength(2);
      expect(asked[0]).toMatch(new RegExp(`To confirm, type the serviceId: ${serviceId}$`));
    } else {
      // Stateless 2025: no way to ask for a form; the confirm argument does it.
      const unconfirmed = await remove({});
      expect(text(unconfirmed)).toMatch(/needs confirmation.*call again with confirm set to the serviceId/);
      const confirmed = await remove({ confirm: serviceId });
      expect(confirmed.isError, text(confirmed)).toBeFalsy();
      expect(asked).toEqual([]);
    }
    // Deleted once: the next attempt (confirmed by argument where forms are not asked for) finds nothing.
    answers.push({ action: 'accept', content: { serviceId } });
    const again = await remove(forms ? {} : { confirm: serviceId });
    expect(text(again)).toMatch(/not found|does not exist/);
  } finally {
    await client.close();
  }
}

const KINDS: Kind[] = ['v2-modern', 'v2-legacy', 'v1'];
const SERVICES = ['rcs-home-feed', 'rcs-cart-upsell', 'rcs-similar-item'];

/**
 * The v2 client in 'auto' mode probes server/discover and settles on 2026-07-28 (as Python's and @openai/agents' do).
 */
async function autoNegotiates(transport: Transport, url: string | undefined): Promise<void> {
  const client = new ClientV2(INFO, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport === 'stdio' ? new StdioV2(STDIO) : new HttpV2(new URL(url!)));
  try {
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect((await client.listTools()).tools).toHaveLength(16);
    const schema = await client.callTool({
      name: 'recommendation_get_default_schema',
      arguments: { datasetType: 'user' },
    });
    expect(schema.isError).toBeFalsy();
  } finally {
    await client.close();
  }
}

describe('stdio', () => {
  it.each(KINDS)(
    '%s client: lists, calls, reads, gets a prompt, confirms a destructive call',
    async (kind) => {
      await round(kind, 'stdio', undefined, 'rcs-home-feed');
    },
    60_000,
  );

  it('a v2 client in auto mode negotiates 2026-07-28', () => autoNegotiates('stdio', undefined), 60_000);
});

for (const mode of ['http', 'stateless'] as const) {
  describe(mode === 'http' ? 'Streamable HTTP with sessions' : 'Streamable HTTP --stateless', () => {
    let server: HttpServerProcess;
    beforeAll(async () => {
      server = await spawnHttpServer(['--sandbox', ...(mode === 'stateless' ? ['--stateless'] : [])]);
    }, 30_000);
    afterAll(() => server?.stop());

    it.each(KINDS.map((kind, i) => [kind, SERVICES[i]!] as const))(
      '%s client: lists, calls, reads, gets a prompt, confirms a destructive call',
      async (kind, serviceId) => {
        await round(kind, mode, server.url, serviceId);
      },
      60_000,
    );

    it('a v2 client in auto mode negotiates 2026-07-28', () => autoNegotiates(mode, server.url), 60_000);
  });
}
