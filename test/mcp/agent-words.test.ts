/**
 * What an agent reads where it decides (issue 26, points 7-12): the tool list, the instructions, the resources, the
 * prompts and the results. Every word must be true of this server and say what the agent evaluations found missing.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, readJson, type Harness } from './harness.js';

let h: Harness;
let tools: Tool[];
beforeAll(async () => {
  h = await connect();
  ({ tools } = await h.client.listTools());
});
afterAll(async () => {
  await h?.close();
});

const tool = (name: string) => tools.find((t) => t.name === name)!;
const description = (name: string) => tool(name).description!;
const property = (name: string, argument: string) =>
  (tool(name).inputSchema.properties as Record<string, { description?: string }>)[argument]!;
const promptText = async (name: string, args: Record<string, string>) => {
  const result = await h.client.getPrompt({ name, arguments: args });
  return (result.messages[0]!.content as { text: string }).text;
};

describe('maps: dongs without addresses (point 7)', () => {
  it('the tool says that near coasts and in new areas only the dong may resolve', () => {
    const text = description('maps_reverse_geocode');
    expect(text).toMatch(/coast/);
    expect(text).toMatch(/addr\/roadaddr/);
    expect(text).toMatch(/legalcode\/admcode/);
    expect(text).not.toContain('(status 3: none, e.g. at sea)');
  });

  it('localize_place tells the status-3 case of the sea from the dong-only case of the coast', async () => {
    const text = await promptText('localize_place', { coords: '129.1587,35.1586', target: 'en' });
    expect(text).not.toMatch(/means there is no address there/);
    expect(text).toMatch(/not even a dong/);
    expect(text).toMatch(/coast/);
    // The call it asks for keeps admcode, so that a coastal point still gets its dong.
    expect(text).toContain('"orders":"roadaddr,addr,admcode"');
  });

  it('the sandbox, asked only for addresses where only the dong resolves, says to ask for the dong', async () => {
    const result = await h.client.callTool({
      name: 'maps_reverse_geocode',
      arguments: { coords: '129.1587,35.1586', orders: 'roadaddr,addr' },
    });
    const status = (result.structuredContent as { status: { code: number; message: string } }).status;
    expect(status.code).toBe(3);
    expect(status.message).not.toMatch(/sea/);
    expect(status.message).toMatch(/legalcode\/admcode/);
    const sea = await h.client.callTool({ name: 'maps_reverse_geocode', arguments: { coords: '129.5,35.0' } });
    expect((sea.structuredContent as { status: { message: string } }).status.message).toMatch(/sea/);
  });
});

describe('what this server cannot do (point 8)', () => {
  it('the instructions say what no tool lists, reads or creates', () => {
    const text = h.client.getInstructions()!;
    for (const thing of [
      'keys',
      'recommendation services',
      'data-flow jobs',
      'catalogs',
      'scanners',
      'text-generation models',
      'Kafka versions',
      'method responses',
      'search domain',
      'big-data app',
    ])
      expect(text, thing).toContain(thing);
  });

  it('the instructions name only what the enabled services lack', async () => {
    const narrow = await connect({ argv: ['--services', 'kms'] });
    const maps = await connect({ argv: ['--services', 'maps'] });
    try {
      const text = narrow.client.getInstructions()!;
      expect(text).toMatch(/No tool lists or reads keys: ask the user/);
      expect(text).not.toMatch(/Kafka|search domain|scanners/);
      // Reverse geocoding needs no id from elsewhere: nothing to say.
      expect(maps.client.getInstructions()).not.toMatch(/No tool|none creates/);
    } finally {
      await narrow.close();
      await maps.close();
    }
  });

  it('the tools whose ids no tool lists say where the id comes from', () => {
    expect(description('kms_migrate_key')).toMatch(/No tool lists keys/);
    expect(description('recommendation_delete_service')).toMatch(/No tool lists services/);
    expect(description('datacatalog_run_scanner')).toMatch(/No tool lists catalogs or scanners/);
    expect(description('apigateway_create_method_response')).toMatch(/No tool reads method responses/);
  });

  it('the tokenizer resource names no operation this server lacks', async () => {
    const { resources } = await h.client.listResources();
    const listed = resources.find((r) => r.uri === 'svc://search/tokenizer-languages')!;
    const doc = await readJson(h.client, 'svc://search/tokenizer-languages');
    for (const text of [listed.description!, doc.usage as string]) {
      expect(text).not.toMatch(/creating a search domain/);
      expect(text).toMatch(/search_update_schema/);
    }
  });
});

describe('destructive tools (point 9)', () => {
  it.each([
    ['kms_migrate_key', 'keyTag'],
    ['recommendation_delete_service', 'serviceId'],
  ])('%s says how the user confirms, so that a first call need not be refused', (name, argument) => {
    const text = description(name);
    expect(text).toMatch(/form/);
    expect(text).toContain(`confirm = ${argument}`);
    expect(text).toMatch(/explicit request is agreement/);
  });

  it('with --no-confirm the descriptions do not promise a confirmation', async () => {
    const unconfirmed = await connect({ argv: ['--no-confirm'] });
    try {
      const listed = (await unconfirmed.client.listTools()).tools;
      for (const name of ['kms_migrate_key', 'recommendation_delete_service']) {
        const text = listed.find((t) => t.name === name)!.description!;
        expect(text, name).not.toMatch(/form|confirm/);
      }
    } finally {
      await unconfirmed.close();
    }
  });

  it('a dry run says that nothing about the target was checked, and the signature is not shown', async () => {
    const result = await h.client.callTool({
      name: 'kms_migrate_key',
      arguments: { keyTag: 'no-such-key', targetRegion: 'KR', dryRun: true },
    });
    const note = (result.structuredContent as { dryRun: { note: string } }).dryRun.note;
    expect(note).toMatch(/not whether .* exists/);
    expect(h.client.getInstructions()).not.toMatch(/returns the signed request/);
    expect(h.client.getInstructions()).toMatch(/signature redacted/);
  });
});

describe('translation directions (point 10)', () => {
  it('the tool says, in plain words, where span tags and glossaries apply, and where the directions are', () => {
    const text = description('translation_translate_text');
    expect(text).toContain('svc://translation/language-pairs');
    expect(text).toMatch(/span tags .*glossaryAndReplaceInfo/);
  });

  it('the per-source template carries the notes of the whole resource', async () => {
    const whole = await readJson(h.client, 'svc://translation/language-pairs');
    const one = await readJson(h.client, 'svc://translation/language-pairs/ko');
    expect(one.notes).toEqual(whole.notes);
  });
});

describe('maps answers explained (point 11)', () => {
  it('publishes an output schema for JSON answers, with codes, mapping ids and the postal code explained', () => {
    const output = JSON.stringify(tool('maps_reverse_geocode').outputSchema);
    expect(output).toMatch(/L statutory dong/);
    expect(output).toMatch(/mappingId/);
    expect(output).toMatch(/service's own dong code/);
    expect(output).toMatch(/postal code/);
  });

  it('orders says which is the statutory and which the administrative dong', () => {
    const text = property('maps_reverse_geocode', 'orders').description!;
    expect(text).toMatch(/legalcode statutory/);
    expect(text).toMatch(/admcode administrative/);
  });

  it('an XML answer comes with structured content that matches the schema and points to the text', async () => {
    const result = await h.client.callTool({
      name: 'maps_reverse_geocode',
      arguments: { coords: '127.1054,37.3595', output: 'xml' },
    });
    expect(result.isError).toBeFalsy();
    expect((result.content as { text: string }[])[0]!.text).toMatch(/^<\?xml/);
    expect(result.structuredContent).toEqual({ answeredAs: 'xml' });
  });

  it('the coordinate systems resource warns that SVC:2048 is not EPSG:5179', async () => {
    const doc = await readJson(h.client, 'svc://maps/coordinate-systems');
    const text = JSON.stringify(doc);
    expect(text).toMatch(/EPSG:5179/);
    expect(text).toMatch(/false easting 1,000,000 and false northing 2,000,000/);
  });
});

describe('words that misled (point 12)', () => {
  it('productName says it may match part of a name', () => {
    expect(property('apigateway_list_products', 'productName').description).toMatch(/part of a name/);
  });

  it('E12 says result.text begins with the prompt, and its output schema lists probs', () => {
    expect(description('textgen_create_completion')).toMatch(/result\.text starts with the prompt/);
    const result = (
      tool('textgen_create_completion').outputSchema!.properties as Record<string, { properties?: object }>
    ).result!;
    expect(result.properties).toHaveProperty('probs');
  });
});
