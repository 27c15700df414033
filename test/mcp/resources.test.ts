import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, readJson, type Harness } from './harness.js';

// The spec's data, written out by hand (not imported from src) so the resources are checked against the spec.
const SPEC_DIRECTIONS: Record<string, string[]> = {
  ko: ['en', 'ja', 'zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr', 'es', 'ru', 'de', 'it'],
  en: ['ko', 'ja', 'zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr', 'es', 'ru', 'de'],
  ja: ['zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr'],
  'zh-CN': ['zh-TW'],
};
/** Rule 3: glossaryKey/replaceInfo, both directions. */
const SPEC_GLOSSARY: Record<string, string[]> = {
  ko: ['en', 'ja', 'zh-CN', 'zh-TW', 'fr'],
  en: ['ja', 'zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr'],
  ja: ['zh-CN', 'zh-TW'],
};
/** Rule 4: honorific, one way each. */
const SPEC_HONORIFIC = ['en>ko', 'ja>ko', 'zh-CN>ko', 'zh-TW>ko', 'ko>ja', 'en>ja', 'zh-CN>ja', 'zh-TW>ja'];
const SPEC_CODES = ['ko', 'en', 'ja', 'zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr', 'es', 'ru', 'de', 'it'];

function bothWays(table: Record<string, string[]>): Set<string> {
  const out = new Set<string>();
  for (const [source, targets] of Object.entries(table)) {
    for (const target of targets) out.add(`${source}>${target}`).add(`${target}>${source}`);
  }
  return out;
}

interface Pair {
  source: string;
  target: string;
  basis: string;
  glossaryAndReplaceInfo: boolean;
  honorific: boolean;
}

/**
 * From the spec (issue 18; E3's rules 3 and 4): the table lists each pair once and pairs work in both directions; a
 * source the table shows has no other direction; any other source may be sent to any other language ("not
 * documented"); a direction needs a source different from the target.
 */
function expectedBasis(source: string, target: string): string | undefined {
  if (source === target) return undefined;
  if (SPEC_DIRECTIONS[source]?.includes(target)) return 'documented';
  if (SPEC_DIRECTIONS[target]?.includes(source)) return 'documented in reverse';
  return source in SPEC_DIRECTIONS ? undefined : 'not documented';
}

let h: Harness;
beforeAll(async () => {
  h = await connect();
});
afterAll(async () => {
  await h?.close();
});

describe('resources', () => {
  it('advertises resources, prompts and completions', () => {
    const caps = h.client.getServerCapabilities();
    expect(caps?.resources).toBeDefined();
    expect(caps?.prompts).toBeDefined();
    expect(caps?.completions).toBeDefined();
  });

  it('lists the reference resources as JSON, each with a title and a description', async () => {
    const { resources: all } = await h.client.listResources();
    // The app view (ui://) is HTML: test/e2e/app-view/.
    expect(all.filter((r) => r.uri.startsWith('ui://')).map((r) => r.mimeType)).toEqual(['text/html;profile=mcp-app']);
    const resources = all.filter((r) => !r.uri.startsWith('ui://'));
    expect(resources.map((r) => r.uri).sort()).toEqual(
      [
        'svc://dataflow/job-states',
        'svc://maps/coordinate-systems',
        'svc://search/tokenizer-languages',
        'svc://textgen/ai-filters',
        'svc://translation/language-pairs',
      ].sort(),
    );
    for (const r of resources) {
      expect(r.mimeType).toBe('application/json');
      expect(r.title, r.uri).toBeTruthy();
      expect(r.description, r.uri).toBeTruthy();
    }
  });

  it('reads the six tokenizer languages with their option strings', async () => {
    const doc = await readJson(h.client, 'svc://search/tokenizer-languages');
    expect(doc.languages).toEqual([
      { language: 'chinese', type: 'hanaterm', method: 'sgmt', option: '+china +china_cn +china_tw' },
      { language: 'english', type: 'hanaterm', method: 'sgmt', option: '+english +revert' },
      { language: 'indonesian', type: 'hanaterm', method: 'sgmt', option: '+indonesian' },
      { language: 'japanese', type: 'hanaterm', method: 'sgmt', option: '+japan +josacat +eomicat' },
      { language: 'korean', type: 'hanaterm', method: 'sgmt', option: '+korea +josacat +eomicat' },
      { language: 'thai', type: 'hanaterm', method: 'sgmt', option: '+thai' },
    ]);
  });

  it('lists every direction the tool sends, each with its basis in the spec, and the glossary and honorific flags', async () => {
    const doc = await readJson(h.client, 'svc://translation/language-pairs');
    const pairs = doc.pairs as Pair[];
    const expected = SPEC_CODES.flatMap((source) =>
      SPEC_CODES.flatMap((target) => {
        const basis = expectedBasis(source, target);
        return basis ? [`${source}>${target}:${basis}`] : [];
      }),
    );
    expect(pairs.map((p) => `${p.source}>${p.target}:${p.basis}`)).toEqual(expected);
    // Issue 18: reverses of table directions are documented; only sources the table does not show are not.
    const basisOf = (key: string) => pairs.find((p) => `${p.source}>${p.target}` === key)?.basis;
    for (const key of ['vi>ko', 'es>en', 'fr>ja', 'zh-TW>zh-CN', 'ja>ko'])
      expect(basisOf(key), key).toBe('documented in reverse');
    for (const key of ['vi>th', 'it>en', 'es>ru']) expect(basisOf(key), key).toBe('not documented');
    expect(basisOf('en>vi')).toBe('documented');
    expect(basisOf('ja>es')).toBeUndefined();
    expect(basisOf('zh-CN>vi')).toBeUndefined();
    // No self-direction is listed: the tool refuses them all (ko -> ko as vi -> vi).
    for (const code of SPEC_CODES) expect(basisOf(`${code}>${code}`), code).toBeUndefined();
    expect(pairs).toHaveLength(143);
    // Every glossary and honorific direction of the spec is one the tool sends.
    for (const key of [...bothWays(SPEC_GLOSSARY), ...SPEC_HONORIFIC]) expect(basisOf(key), key).toBeDefined();

    const glossary = bothWays(SPEC_GLOSSARY);
    const honorific = new Set(SPEC_HONORIFIC);
    for (const p of pairs) {
      const key = `${p.source}>${p.target}`;
      expect(p.glossaryAndReplaceInfo, key).toBe(glossary.has(key));
      expect(p.honorific, key).toBe(honorific.has(key));
    }

    const languages = doc.languages as { code: string; name: string }[];
    expect(languages.map((l) => l.code)).toEqual(SPEC_CODES);
    expect(languages.find((l) => l.code === 'zh-TW')?.name).toBe('Chinese (Traditional)');
    expect(doc.sources).toEqual(['auto', ...SPEC_CODES]);
  });

  it('explains every basis and rule in plain words, with no label of a spec the agent never sees', async () => {
    const doc = await readJson(h.client, 'svc://translation/language-pairs');
    const meanings = doc.basisMeanings as Record<string, string>;
    expect(Object.keys(meanings)).toEqual(['documented', 'documented in reverse', 'not documented']);
    expect(meanings['documented in reverse']).toMatch(/opposite direction/);
    expect(meanings['not documented']).toMatch(/sent/);
    const words = JSON.stringify({ meanings, notes: doc.notes });
    expect(words).not.toMatch(/\brule \d|\btable\b|\bspec\b/i);
    const { resources } = await h.client.listResources();
    expect(resources.find((r) => r.uri === 'svc://translation/language-pairs')?.description).not.toMatch(
      /\brule \d|both ways\)/,
    );
  });

  it('says what the tool counts: span-tagged text is free only where glossaryAndReplaceInfo is true', async () => {
    const doc = await readJson(h.client, 'svc://translation/language-pairs');
    const note = (doc.notes as string[]).find((n) => n.startsWith('text:'))!;
    expect(note).toMatch(
      /Where glossaryAndReplaceInfo is true, span-tagged text and its tags do not count; elsewhere every character counts/,
    );
    const pairs = doc.pairs as Pair[];
    expect(pairs.find((p) => p.source === 'ko' && p.target === 'en')?.glossaryAndReplaceInfo).toBe(true);
    expect(pairs.find((p) => p.source === 'ko' && p.target === 'es')?.glossaryAndReplaceInfo).toBe(false);
    // The tool agrees: 4,990 characters and a 50-character span pass ko -> en and are refused for ko -> es.
    const text = `${'a'.repeat(4990)}<span translate="no">${'b'.repeat(50)}</span>`;
    const call = (target: string) =>
      h.client.callTool({ name: 'translation_translate_text', arguments: { source: 'ko', target, text } });
    expect((await call('en')).isError).toBeFalsy();
    const refused = await call('es');
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]!.text).toMatch(
      /text: must be at most 5000 characters \(got 5068\)/,
    );
  });

  it('lists no self-direction, and the tool refuses every one alike', async () => {
    for (const code of ['ko', 'vi', 'it']) {
      const result = await h.client.callTool({
        name: 'translation_translate_text',
        arguments: { source: code, target: code, text: 'x' },
      });
      expect(result.isError, code).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toContain(
        `${code} -> ${code} is not a supported direction; the target must differ from the source`,
      );
    }
  });

  it('reads the coordinate systems of E5 with the UTM-K parameters', async () => {
    const doc = await readJson(h.client, 'svc://maps/coordinate-systems');
    const systems = doc.coordinateSystems as Record<string, unknown>[];
    expect(systems.map((s) => s.code).sort()).toEqual(['EPSG:3857', 'EPSG:4326', 'SVC:2048']);
    expect(systems.find((s) => s.code === 'SVC:2048')).toMatchObject({
      name: 'UTM-K',
      type: 'projected',
      unit: 'metre',
      parameters: {
        centralMeridian: 127.5,
        latitudeOfOrigin: 38,
        falseEasting: 2000000,
        falseNorthing: 1000000,
        scaleFactor: 0.9996,
      },
    });
    expect(systems.find((s) => s.code === 'EPSG:4326')).toMatchObject({ type: 'geographic', unit: 'degree' });
    expect(doc.defaults).toEqual({ sourcecrs: 'EPSG:4326', targetcrs: 'EPSG:4326' });
  });

  it('reads the AI filter categories of E12 with what the scores mean', async () => {
    const doc = await readJson(h.client, 'svc://textgen/ai-filters');
    expect(doc.filters).toEqual([
      { groupName: 'curse', name: 'discrimination', meaning: 'Abasement, discrimination or hate speech' },
      { groupName: 'curse', name: 'insult', meaning: 'Profanity' },
      { groupName: 'unsafeContents', name: 'sexualHarassment', meaning: 'Sexual harassment or obscenity' },
    ]);
    expect(doc.scores).toEqual([
      { score: '0', degree: 'high' },
      { score: '1', degree: 'medium' },
      { score: '2', degree: 'low' },
    ]);
  });

  it('reads the data-flow job states', async () => {
    const doc = await readJson(h.client, 'svc://dataflow/job-states');
    expect((doc.states as { state: string }[]).map((s) => s.state)).toEqual([
      'RUNNABLE',
      'RUNNING',
      'DELETED',
      'UNKNOWN',
      'DRAFT',
      'STOPPED',
      'EDITING',
    ]);
  });
});

describe('resource descriptions name only enabled tools', () => {
  it.each([
    ['--services', ['--services', 'search,kms']],
    ['--tools', ['--tools', 'search_list_tokenizer_languages']],
    ['--read-only', ['--read-only']],
  ])('%s', async (_, argv) => {
    const narrowed = await connect({ argv });
    try {
      const tools = new Set((await narrowed.client.listTools()).tools.map((t) => t.name));
      const { resources } = await narrowed.client.listResources();
      const { resourceTemplates } = await narrowed.client.listResourceTemplates();
      const words = [...resources, ...resourceTemplates].map((r) => r.description ?? '').join(' ');
      const named = [...words.matchAll(/\b[a-z]+(?:_[a-z]+)+\b/g)].map((m) => m[0]);
      expect(named.filter((name) => !tools.has(name))).toEqual([]);
    } finally {
      await narrowed.close();
    }
  });

  it('names them when they are enabled', async () => {
    const { resources } = await h.client.listResources();
    expect(resources.find((r) => r.uri === 'svc://dataflow/job-states')?.description).toContain(
      'dataflow_update_job_execution_options',
    );
  });
});

describe('resource template svc://translation/language-pairs/{source}', () => {
  it('is listed with a title and a description', async () => {
    const { resourceTemplates } = await h.client.listResourceTemplates();
    expect(resourceTemplates).toHaveLength(1);
    expect(resourceTemplates[0]).toMatchObject({
      uriTemplate: 'svc://translation/language-pairs/{source}',
      mimeType: 'application/json',
    });
    expect(resourceTemplates[0]!.title).toBeTruthy();
    expect(resourceTemplates[0]!.description).toBeTruthy();
  });

  it('gives the targets of one source with their basis', async () => {
    for (const source of SPEC_CODES) {
      const doc = await readJson(h.client, `svc://translation/language-pairs/${source}`);
      const expected = SPEC_CODES.flatMap((t) => {
        const basis = expectedBasis(source, t);
        return basis ? [`${t}:${basis}`] : [];
      });
      expect(
        (doc.targets as { code: string; basis: string }[]).map((t) => `${t.code}:${t.basis}`),
        source,
      ).toEqual(expected);
      expect((doc.source as { code: string }).code).toBe(source);
    }
    const ja = await readJson(h.client, 'svc://translation/language-pairs/ja');
    expect(ja.targets).toContainEqual({
      code: 'ko',
      name: 'Korean',
      basis: 'documented in reverse',
      glossaryAndReplaceInfo: true,
      honorific: true,
    });
    expect(ja.targets).toContainEqual({
      code: 'vi',
      name: 'Vietnamese',
      basis: 'documented',
      glossaryAndReplaceInfo: false,
      honorific: false,
    });
    expect(Object.keys(ja.basisMeanings as object)).toEqual(['documented', 'documented in reverse', 'not documented']);
  });

  it('answers an unknown source with a clear error', async () => {
    await expect(h.client.readResource({ uri: 'svc://translation/language-pairs/xx' })).rejects.toThrow(
      /Unknown source language "xx".*use one of ko, en, ja/,
    );
    await expect(h.client.readResource({ uri: 'svc://translation/language-pairs/auto' })).rejects.toThrow(
      /Unknown source/,
    );
  });

  it('answers a URI it does not serve with resource not found (-32002)', async () => {
    for (const uri of [
      'svc://search/nothing',
      'svc://translation/language-pairs/',
      'svc://translation/language-pairs/ko/en',
    ]) {
      await expect(h.client.readResource({ uri })).rejects.toMatchObject({
        code: -32002,
        message: expect.stringContaining(`Resource ${uri} not found`),
      });
    }
  });

  it('reads a percent-encoded source', async () => {
    const { contents } = await h.client.readResource({ uri: 'svc://translation/language-pairs/zh%2DCN' });
    expect(JSON.parse((contents[0] as { text: string }).text)).toMatchObject({ source: { code: 'zh-CN' } });
  });

  it('completes nothing for a fixed resource, and refuses a template it does not have', async () => {
    const complete = (uri: string) =>
      h.client.complete({ ref: { type: 'ref/resource', uri }, argument: { name: 'source', value: '' } });
    expect((await complete('svc://search/tokenizer-languages')).completion.values).toEqual([]);
    await expect(complete('svc://nothing/{x}')).rejects.toThrow(/Resource template svc:\/\/nothing\/\{x\} not found/);
  });

  it('completes source with valid language codes', async () => {
    const complete = (value: string) =>
      h.client.complete({
        ref: { type: 'ref/resource', uri: 'svc://translation/language-pairs/{source}' },
        argument: { name: 'source', value },
      });
    expect((await complete('')).completion.values).toEqual(SPEC_CODES);
    expect((await complete('zh')).completion.values).toEqual(['zh-CN', 'zh-TW']);
    expect((await complete('Jap')).completion.values).toEqual(['ja']);
    expect((await complete('qq')).completion.values).toEqual([]);
  });
});
