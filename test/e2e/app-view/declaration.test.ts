/**
 * What a client without the MCP Apps extension sees of the app view: the declaration (`_meta.ui.resourceUri` on
 * maps_reverse_geocode) and nothing else. The same calls against a server with the view and one without it
 * (--no-app-views, SVC_APP_VIEWS=false) give the same results, byte for byte, for the SDK v1 client and the SDK v2
 * client in both eras; tools/list differs by the declaration alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REVERSE_GEOCODE_VIEW } from '../../../src/mcp/app-views/app-views.js';
import { CLI_PATH } from '../../helpers/spawn-server.js';

type Kind = 'v1' | 'v2-legacy' | 'v2-modern';
type Json = Record<string, unknown>;

interface AnyClient {
  listTools(): Promise<{ tools: Json[] }>;
  callTool(params: { name: string; arguments: Json }): Promise<Json>;
  listResources(): Promise<{ resources: { uri: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: Json[] }>;
  close(): Promise<void>;
}

const INFO = { name: 'app-view-declaration-test', version: '0.0.0' };

async function connect(kind: Kind, args: string[], env: Record<string, string> = {}): Promise<AnyClient> {
  const stdio = {
    command: process.execPath,
    args: [CLI_PATH, '--sandbox', ...args],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe' as const,
  };
  if (kind === 'v1') {
    const client = new ClientV1(INFO);
    await client.connect(new StdioV1(stdio));
    return client as unknown as AnyClient;
  }
  const client = new ClientV2(
    INFO,
    kind === 'v2-modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {},
  );
  await client.connect(new StdioV2(stdio));
  return client as unknown as AnyClient;
}

const CALLS: Json[] = [
  { coords: '126.97843,37.56668', orders: 'legalcode,admcode,addr,roadaddr' },
  { coords: '129.1587,35.1586', orders: 'legalcode,admcode,addr,roadaddr' },
  { coords: '129.4,35.0' },
  { coords: '127.49255,37.49261', output: 'xml' },
  { coords: 'not a point' },
];

/** A message as JSON text, its members in the order they arrived: equal texts are equal bytes on the wire. */
const text = (value: unknown) => JSON.stringify(value);

describe.each<Kind>(['v1', 'v2-legacy', 'v2-modern'])('a client without the extension (%s)', (kind) => {
  let on: AnyClient;
  let off: AnyClient;

  beforeAll(async () => {
    [on, off] = await Promise.all([connect(kind, []), connect(kind, ['--no-app-views'])]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([on?.close(), off?.close()]);
  });

  it('gets the same tool results, byte for byte, with the view on and off', async () => {
    for (const args of CALLS) {
      const [a, b] = await Promise.all([
        on.callTool({ name: 'maps_reverse_geocode', arguments: args }),
        off.callTool({ name: 'maps_reverse_geocode', arguments: args }),
      ]);
      expect(text(a), text(args)).toBe(text(b));
    }
  });

  it('sees tools/list grow by the declaration alone', async () => {
    const [{ tools: withView }, { tools: without }] = await Promise.all([on.listTools(), off.listTools()]);
    const declaration = { ui: { resourceUri: REVERSE_GEOCODE_VIEW.uri } };
    expect(withView.map((t) => t.name)).toEqual(without.map((t) => t.name));
    for (const [i, tool] of withView.entries()) {
      if (tool.name !== 'maps_reverse_geocode') {
        expect(text(tool)).toBe(text(without[i]));
        continue;
      }
      const { _meta, ...rest } = tool;
      expect(_meta).toEqual(declaration);
      expect(text(rest)).toBe(text(without[i]));
      // Exactly the member `"_meta":{"ui":{"resourceUri":"…"}}` and its comma.
      expect(text(tool).length - text(without[i]).length).toBe(`,"_meta":${text(declaration)}`.length);
    }
  });

  it('finds the ui:// resource only where the view is on', async () => {
    const [{ resources: withView }, { resources: without }] = await Promise.all([
      on.listResources(),
      off.listResources(),
    ]);
    expect(withView.map((r) => r.uri)).toEqual([...without.map((r) => r.uri), REVERSE_GEOCODE_VIEW.uri]);
    const read = await on.readResource({ uri: REVERSE_GEOCODE_VIEW.uri });
    expect(read.contents[0]).toMatchObject({
      uri: REVERSE_GEOCODE_VIEW.uri,
      mimeType: 'text/html;profile=mcp-app',
      _meta: { ui: { csp: {}, permissions: { clipboardWrite: {} }, prefersBorder: true } },
    });
    const page = read.contents[0]!.text as string;
    expect(page).toMatch(/^<!doctype html>/);
    // Self-contained: no script, style or image from elsewhere.
    expect(page).not.toMatch(/<script[^>]+src=|<link[^>]+href=|<img[^>]+src=/);
    await expect(off.readResource({ uri: REVERSE_GEOCODE_VIEW.uri })).rejects.toThrow(/not found/i);
  });
});

it('SVC_APP_VIEWS=false turns the view off as --no-app-views does', async () => {
  const [on, off] = await Promise.all([
    connect('v1', [], { SVC_APP_VIEWS: 'true' }),
    connect('v1', [], { SVC_APP_VIEWS: 'false' }),
  ]);
  const metaOf = async (client: AnyClient) =>
    (await client.listTools()).tools.find((t) => t.name === 'maps_reverse_geocode')!._meta;
  try {
    expect(await metaOf(on)).toEqual({ ui: { resourceUri: REVERSE_GEOCODE_VIEW.uri } });
    expect(await metaOf(off)).toBeUndefined();
    await expect(off.readResource({ uri: REVERSE_GEOCODE_VIEW.uri })).rejects.toThrow(/not found/i);
  } finally {
    await Promise.all([on.close(), off.close()]);
  }
});

it('declares the tile server, and only it, when the operator sets one', async () => {
  const client = await connect('v1', [], { SVC_MAP_TILES_URL: 'https://tiles.example.org/{z}/{x}/{y}.png' });
  try {
    const read = await client.readResource({ uri: REVERSE_GEOCODE_VIEW.uri });
    expect((read.contents[0]!._meta as Json).ui).toMatchObject({
      csp: { resourceDomains: ['https://tiles.example.org'] },
    });
    expect(read.contents[0]!.text).toContain('"tiles":"https://tiles.example.org/{z}/{x}/{y}.png"');
  } finally {
    await client.close();
  }
});
