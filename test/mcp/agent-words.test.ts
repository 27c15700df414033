/**
 * What an agent reads where it decides (issue 26, points 7-12): the tool list, the instructions, the resources, the
 * prompts and the results. Every word must be true of this server and say what the agent evaluations found missing.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Agent } from 'undici';
import { parseCommand } from '../../src/config/index.js';
import { createServerFactory } from '../../src/server.js';
import { upstreamOf } from '../../src/upstream/http.js';
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

/** Issue 33, items 9-11: the words the fourth-wave bar and the long sessions found missing. */
const outputOf = (name: string) => JSON.stringify(tool(name).outputSchema);
const texts = (result: Record<string, unknown>) => (result.content as { text: string }[]).map((c) => c.text);
/** A node of a tool's output schema by its path ('[]' for a list's items), through nullable anyOf wrappers. */
type SchemaNode = {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  description?: string;
};
function outputNode(name: string, path: string[]): SchemaNode | undefined {
  const open = (node: SchemaNode | undefined) => node?.anyOf?.find((n) => n.properties || n.items) ?? node;
  let node = open(tool(name).outputSchema as SchemaNode);
  for (const key of path) node = open(key === '[]' ? node?.items : node?.properties?.[key]);
  return node;
}

describe('maps: an address-only query with no result (issue 33, item 9)', () => {
  it('status 3 to roadaddr/addr only carries a note that suggests legalcode/admcode (spec rule 1)', async () => {
    const result = await h.client.callTool({
      name: 'maps_reverse_geocode',
      arguments: { coords: '129.1587,35.1586', orders: 'roadaddr' },
    });
    expect((result.structuredContent as { status: { code: number } }).status.code).toBe(3);
    const [answer, note, ...rest] = texts(result);
    expect(JSON.parse(answer!)).toEqual(result.structuredContent);
    expect(rest).toEqual([]);
    expect(note).toMatch(/orders legalcode,admcode/);
    expect(note).toMatch(/spec rule 1/);
  });

  it('no note where the query asked for a dong, or where there was a result', async () => {
    for (const args of [
      { coords: '129.5,35.0' },
      { coords: '129.5,35.0', orders: 'addr,admcode' },
      { coords: '127.1054,37.3595', orders: 'roadaddr,addr' },
    ]) {
      const result = await h.client.callTool({ name: 'maps_reverse_geocode', arguments: args });
      expect(texts(result), JSON.stringify(args)).toHaveLength(1);
    }
  });

  it('the output schema explains code.type L/A/S, mappingId and which additionN holds what', () => {
    const output = outputOf('maps_reverse_geocode');
    expect(output).toMatch(/L statutory dong; A administrative dong; S administrative dong/);
    expect(output).toMatch(/ID of the service's own dong code, mapped to the statutory\/administrative code in id/);
    const land = outputNode('maps_reverse_geocode', ['results', '[]', 'land'])!.properties!;
    const addition = (n: number) => land[`addition${n}`];
    expect(JSON.stringify(addition(0))).toMatch(/type building, value the building name/);
    expect(JSON.stringify(addition(1))).toMatch(/type zipcode, value the postal code/);
    expect(output).toMatch(/No member holds a whole address/);
  });
});

describe('the sandbox says what it fakes (issue 33, item 10)', () => {
  it('a translation the sandbox cannot do carries simulated, as a completion does', async () => {
    const translated = await h.client.callTool({
      name: 'translation_translate_text',
      arguments: { source: 'en', target: 'ko', text: 'The report is late.' },
    });
    const result = (translated.structuredContent as { message: { result: Record<string, string> } }).message.result;
    expect(result.translatedText).toMatch(/^\[not translated by the sandbox/);
    expect(result.simulated).toMatch(/^Simulated by the sandbox, not a translation engine: only the 8 sentences/);
    const completed = await h.client.callTool({ name: 'textgen_create_completion', arguments: { text: 'Hi' } });
    expect((completed.structuredContent as { result: { simulated: string } }).result.simulated).toMatch(
      /^Simulated by the sandbox/,
    );
  });

  it('both output schemas declare simulated, with the same words', () => {
    const e3 = outputNode('translation_translate_text', ['message', 'result', 'simulated']);
    const e12 = outputNode('textgen_create_completion', ['result', 'simulated']);
    expect(e3?.description).toMatch(/^Only in answers of the sandbox/);
    expect(e12?.description).toBe(e3?.description);
  });

  it('on the sandbox, the descriptions of the tools it fakes say so; elsewhere they do not', async () => {
    expect(description('translation_translate_text')).toMatch(/ Sandbox: a small phrasebook only \(see simulated\)\.$/);
    expect(description('textgen_create_completion')).toMatch(/ Sandbox: filler, not a model \(see simulated\)\.$/);
    expect(description('maps_reverse_geocode')).not.toMatch(/Sandbox/);
    // The same server without --sandbox (nothing is called, so no upstream is needed).
    const command = parseCommand([], {});
    if (command.kind !== 'serve') throw new Error('expected a serve command');
    const server = createServerFactory(command.config, {
      upstream: upstreamOf(new Agent()),
      now: Date.now,
      randomId: randomUUID,
      random: Math.random,
      log() {},
    })();
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'agent-words', version: '0.0.0' });
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    try {
      expect(JSON.stringify((await client.listTools()).tools)).not.toMatch(/Sandbox:/);
      expect(client.getInstructions()).not.toMatch(/SANDBOX|phrasebook/);
    } finally {
      await client.close();
    }
  });

  it('the instructions say what the sandbox translates and fakes, and name the simulated member', async () => {
    const text = h.client.getInstructions()!;
    expect(text).toMatch(/SANDBOX MODE/);
    expect(text).toMatch(/only the few sentences of its phrasebook/);
    expect(text).toMatch(/\[not translated by the sandbox: …\]/);
    expect(text).toMatch(/filler sentences/);
    expect(text).toMatch(/carry a simulated member/);
    const kms = await connect({ argv: ['--services', 'kms'] });
    try {
      expect(kms.client.getInstructions()).toMatch(/Results are simulated\.$/m);
      expect(kms.client.getInstructions()).not.toMatch(/phrasebook/);
    } finally {
      await kms.close();
    }
  });
});

describe('words that cost agents calls (issue 33, item 11)', () => {
  it('E12 names its model and says how to ask for near-deterministic output and what topK 0 is', () => {
    expect(property('textgen_create_completion', 'model').description).toMatch(/spec names only LK-D2/);
    const temperature = property('textgen_create_completion', 'temperature') as { exclusiveMinimum?: number };
    expect(temperature.exclusiveMinimum).toBe(0);
    expect(property('textgen_create_completion', 'temperature').description).toMatch(/least random: a small value/);
    expect(property('textgen_create_completion', 'topK').description).toMatch(/0: spec unclear/);
  });

  it('E5 orders names all four values; sourcecrs points to the UTM-K note', () => {
    const orders = property('maps_reverse_geocode', 'orders').description!;
    for (const word of ['legalcode statutory', 'admcode administrative', 'addr/roadaddr land-lot/road address'])
      expect(orders).toContain(word);
    expect(orders).toMatch(/only they give one/);
    expect(property('maps_reverse_geocode', 'sourcecrs').description).toMatch(
      /UTM-K: see svc:\/\/maps\/coordinate-systems/,
    );
  });

  it('E1 pageSize says the spec gives no maximum and what the server does', () => {
    expect(property('streaming_list_config_groups', 'pageSize').description).toBe('No max in the spec; sent as is');
  });

  it('the AI filter score says its direction where the score is', () => {
    expect(outputOf('textgen_create_completion')).toMatch(/0 high, 1 medium, 2 low.*0 = strongest match: flag it/);
  });

  it('E7 says what to count with, beside initialCount', () => {
    expect(outputOf('apigateway_list_products')).toMatch(/no meaning: count products with productPage\.total/);
  });

  it('E4 says what the spec leaves open: a RUNNING job, and options left out', async () => {
    const text = description('dataflow_update_job_execution_options');
    expect(text).toMatch(
      /spec is silent on: edits of a RUNNING job now or at its next run; omitted options kept or reset/,
    );
    const doc = await readJson(h.client, 'svc://dataflow/job-states');
    expect(doc.usage).toMatch(/kept or reset/);
  });

  it('output schemas declare every member the spec names, and the translation envelope', () => {
    const members = (name: string, path: string[]) => Object.keys(outputNode(name, path)?.properties ?? {});
    expect(members('streaming_list_config_groups', ['result', 'kafkaConfigGroupList', '[]'])).toContain('permission');
    expect(members('streaming_list_server_images', ['result', 'serverImageList', '[]'])).toContain('order');
    expect(members('translation_translate_text', ['message'])).toEqual(
      expect.arrayContaining(['@type', '@service', 'result']),
    );
    expect(members('apigateway_list_products', ['productPage', 'content', '[]'])).toContain('permission');
    expect(members('dataflow_update_job_execution_options', ['nodes', '[]'])).toEqual(
      expect.arrayContaining(['type', 'id', 'name', 'parentNodeIds']),
    );
  });

  it('span tags sent where they are text come back with a note; where honoured, none', async () => {
    const tagged = '<span translate="no">SBC</span> 고마워.';
    for (const source of ['ko', 'auto']) {
      const result = await h.client.callTool({
        name: 'translation_translate_text',
        arguments: { source, target: 'es', text: tagged },
      });
      const [, note] = texts(result);
      expect(note, source).toMatch(/^Span tags are not honoured for ko -> es \(spec rule 5/);
      expect(note).toMatch(/literal text/);
    }
    const honoured = await h.client.callTool({
      name: 'translation_translate_text',
      arguments: { source: 'ko', target: 'en', text: tagged },
    });
    expect(texts(honoured)).toHaveLength(1);
    const untagged = await h.client.callTool({
      name: 'translation_translate_text',
      arguments: { source: 'ko', target: 'es', text: '고마워.' },
    });
    expect(texts(untagged)).toHaveLength(1);
  });

  it('KMS says the Region clash is on the key name, not the keyTag', () => {
    expect(description('kms_migrate_key')).toMatch(/key of the same name \(a key's name, not its keyTag\)/);
  });

  it('E10 says the spec marks no field required', () => {
    expect(description('recommendation_get_default_schema')).toMatch(/Required fields: not in the spec/);
    expect(outputOf('recommendation_get_default_schema')).toMatch(/marks none of them required/);
  });

  it('the instructions tell the tool translate_and_summarize from the prompt of that name', () => {
    expect(h.client.getInstructions()).toMatch(
      /translate_and_summarize is a tool and a prompt: the tool does the whole job in one call .*the prompt, which a user picks, has you make the calls yourself/,
    );
  });

  it('the instructions say which changes no tool undoes, naming only what is enabled', async () => {
    const text = h.client.getInstructions()!;
    for (const change of [
      'a key migration',
      'a deleted recommendation service',
      'an index added to a search schema',
      'an added method response',
      'a started scanner run',
    ])
      expect(text, change).toContain(change);
    expect(text).toMatch(/asked to revert such changes, say so without calling a tool/);
    expect(text).toMatch(/Job execution options are set back only by editing them again/);
    const kms = await connect({ argv: ['--services', 'kms'] });
    try {
      const narrow = kms.client.getInstructions()!;
      expect(narrow).toMatch(/No tool here undoes a key migration \(the global key is deleted\): asked to revert/);
      expect(narrow).not.toMatch(/scanner|method response|translate_and_summarize/);
    } finally {
      await kms.close();
    }
  });
});
