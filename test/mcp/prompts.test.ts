import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Harness } from './harness.js';

const CODES = ['ko', 'en', 'ja', 'zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr', 'es', 'ru', 'de', 'it'];

let h: Harness;
beforeAll(async () => {
  h = await connect();
});
afterAll(async () => {
  await h?.close();
});

async function render(name: string, args: Record<string, string>): Promise<string> {
  const result = await h.client.getPrompt({ name, arguments: args });
  expect(result.messages).toHaveLength(1);
  const content = result.messages[0]!.content;
  if (content.type !== 'text') throw new Error('expected a text message');
  return content.text;
}

const completeArg = (prompt: string, argument: string, value: string, args?: Record<string, string>) =>
  h.client
    .complete({
      ref: { type: 'ref/prompt', name: prompt },
      argument: { name: argument, value },
      ...(args ? { context: { arguments: args } } : {}),
    })
    .then((r) => r.completion.values);

describe('prompts', () => {
  it('lists the three flows with their arguments', async () => {
    const { prompts } = await h.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual([
      'localize_place',
      'summarize_and_translate',
      'translate_and_summarize',
    ]);
    const tas = prompts.find((p) => p.name === 'translate_and_summarize')!;
    expect(tas.title).toBeTruthy();
    expect(tas.description).toBeTruthy();
    expect(Object.fromEntries(tas.arguments!.map((a) => [a.name, a.required]))).toEqual({
      text: true,
      target: true,
      source: false,
      length: false,
      summarize: false,
    });
    for (const argument of tas.arguments!) expect(argument.description, argument.name).toBeTruthy();
    const place = prompts.find((p) => p.name === 'localize_place')!;
    expect(Object.fromEntries(place.arguments!.map((a) => [a.name, a.required]))).toEqual({
      coords: true,
      target: true,
      sourcecrs: false,
    });
  });

  it('renders translate_and_summarize with the tools, their arguments and the text', async () => {
    const text = await render('translate_and_summarize', { text: 'Hello. How are you?', target: 'ko' });
    expect(text).toContain('translation_translate_text');
    expect(text).toContain('{"source":"auto","target":"ko","text":');
    expect(text).toContain('one call, with the whole text');
    expect(text).toContain('<span translate="no">');
    expect(text).toContain('textgen_create_completion');
    expect(text).toContain('"model":"LK-D2","maxTokens":300,"temperature":0.3,"topP":0.8,"stopBefore":["###"]');
    expect(text).toContain('Summarize the text below in Korean');
    expect(text).toContain('### Summary (Korean)');
    expect(text).toContain('srcLangType');
    expect(text).toContain('--- text ---\nHello. How are you?\n--- end of text ---');
  });

  it('renders a text over 5000 characters in pieces within the limit, and honours length', async () => {
    const long = Array.from({ length: 150 }, (_, i) => `Sentence ${i} is about the sea and the wind.`).join(' ');
    expect(long.length).toBeGreaterThan(5000);
    const text = await render('translate_and_summarize', { text: long, target: 'ja', source: 'en', length: 'short' });
    expect(text).toContain('--- piece 1 of 2 ---');
    expect(text).toContain('--- piece 2 of 2 ---');
    expect(text).toContain('"maxTokens":120');
    expect(text).toContain('{"source":"en","target":"ja"');
    const pieces = text.split(/--- piece \d of 2 ---\n/).slice(1);
    for (const piece of pieces)
      expect(piece.replace('\n--- end of text ---', '').trim().length).toBeLessThanOrEqual(5000);
  });

  // Issue 9: the prompt counts as the E3 tool counts, so it never promises one call for a text the tool refuses.
  it('promises one call only for a text the tool takes in one call, for the direction asked for', async () => {
    const span = `<span translate="no">${'n'.repeat(72)}</span>`;
    const long = `${'가나다라마바사아자. '.repeat(453)}가나다라마바사${span}`;
    const toEs = await render('translate_and_summarize', { text: long, target: 'es', source: 'ko' });
    expect(toEs).not.toContain('one call, with the whole text');
    expect(toEs).toContain('The text counts 5090 characters');
    expect(toEs).toContain('--- piece 2 of 2 ---');
    expect(toEs).toContain('counts like any other text for ko -> es and may be translated');
    const toEn = await render('translate_and_summarize', { text: long, target: 'en', source: 'ko' });
    expect(toEn).toContain('The text counts 4990 characters: one call, with the whole text.');
    expect(toEn).toContain('does not count toward the limit');
  });

  // Issue 33, item 3: a long text is summarized in parts, then the parts, as the workflow tool does.
  it('tells the model to summarize a long translation in parts, then the parts, each part within one prompt', async () => {
    const { SERVER_LIMITS } = await import('../../src/catalogue/fields.js');
    const korean = '이것은 긴 한국어 문장입니다. '.repeat(2700); // 45,900 characters
    const text = await render('translate_and_summarize', { text: korean, target: 'en', source: 'ko' });
    const count = Number(/in (\d+) pieces split/.exec(text)![1]);
    const parts =
      /summarize it in (\d+) parts, then the parts\. Part by part, \{TRANSLATION\} is the joined translation of (.*?); then/.exec(
        text,
      );
    expect(parts, text.slice(0, 3000)).not.toBeNull();
    // The parts cover every piece once, in order; none has a source over a third of what a prompt holds (a translation
    // may grow to three times its source).
    const ranges = parts![2]!.split(', ').map((r) =>
      r
        .replace(/^pieces? /, '')
        .split('-')
        .map(Number),
    );
    expect(ranges).toHaveLength(Number(parts![1]));
    expect(ranges.length).toBeGreaterThan(1);
    expect(ranges.flatMap(([a, b = a]) => Array.from({ length: b! - a! + 1 }, (_, i) => a! + i))).toEqual(
      Array.from({ length: count }, (_, i) => i + 1),
    );
    const pieces = text.split(/--- piece \d+ of \d+ ---\n/).slice(1);
    for (const [a, b = a] of ranges) {
      const source = pieces.slice(a! - 1, b).join('').length;
      expect(source * 3).toBeLessThanOrEqual(SERVER_LIMITS.promptChars);
    }
    expect(text).toContain('say that it was made from part summaries');
  });

  it('counts characters as code points, as the tools do: 30,000 emoji are taken, 50,001 are not', async () => {
    const emoji = '😀'.repeat(30_000);
    await expect(render('translate_and_summarize', { text: emoji, target: 'ko', source: 'en' })).resolves.toContain(
      'translation_translate_text',
    );
    await expect(render('summarize_and_translate', { text: emoji, target: 'ko', source: 'en' })).resolves.toContain(
      'textgen_create_completion',
    );
    await expect(render('translate_and_summarize', { text: '😀'.repeat(50_001), target: 'ko' })).rejects.toThrow(
      /text must be at most 50000 characters \(got 50001\)/,
    );
  });

  it('translates only with summarize false', async () => {
    const text = await render('translate_and_summarize', {
      text: 'Hello. How are you?',
      target: 'ko',
      summarize: 'false',
    });
    expect(text).toMatch(/^Translate the text below from .* into Korean \(ko\)\.\n/);
    expect(text).toContain('translation_translate_text');
    expect(text).not.toContain('textgen_create_completion');
    expect(text).not.toContain('Summarize');
    expect(text).toContain('translate_and_summarize with summarize false does the same in one call');
    await expect(render('translate_and_summarize', { text: 'x', target: 'ko', summarize: 'maybe' })).rejects.toThrow(
      /summarize: use true or false/,
    );
  });

  it('refuses an unsupported direction and an unknown length', async () => {
    await expect(render('translate_and_summarize', { text: 'x', target: 'es', source: 'ja' })).rejects.toThrow(
      /ja -> es is not a supported direction/,
    );
    await expect(render('translate_and_summarize', { text: 'x', target: 'xx' })).rejects.toThrow(
      /unknown language "xx"/,
    );
    await expect(render('summarize_and_translate', { text: 'x', target: 'en', length: 'huge' })).rejects.toThrow(
      /length/,
    );
  });

  it('renders summarize_and_translate: summary in the source language first', async () => {
    const text = await render('summarize_and_translate', {
      text: '오늘은 날씨가 좋다.',
      target: 'en',
      source: 'ko',
      length: 'long',
    });
    const summarize = text.indexOf('textgen_create_completion');
    const translate = text.indexOf('translation_translate_text');
    expect(summarize).toBeGreaterThan(-1);
    expect(translate).toBeGreaterThan(summarize);
    expect(text).toContain('Summarize the text below in Korean');
    expect(text).toContain('{"source":"ko","target":"en","text":"<the summary>"}');
    expect(text).toContain('"maxTokens":600');
    expect(text).toContain('오늘은 날씨가 좋다.');
  });

  it('renders localize_place: reverse geocoding, then translation from Korean', async () => {
    const text = await render('localize_place', { coords: '127.1054,37.3595', target: 'en' });
    expect(text).toContain('maps_reverse_geocode');
    expect(text).toContain(
      '{"coords":"127.1054,37.3595","sourcecrs":"EPSG:4326","orders":"roadaddr,addr,admcode","output":"json"}',
    );
    expect(text).toContain('{"source":"ko","target":"en","text":"<the Korean address>"}');
    expect(text).toContain('<span translate="no">');
    expect(text).toContain('svc://maps/coordinate-systems');
    const spanless = await render('localize_place', { coords: '127.1,37.3', target: 'es', sourcecrs: 'EPSG:4326' });
    expect(spanless).toContain('Span tags are not honoured for ko -> es');
    await expect(render('localize_place', { coords: 'Seoul', target: 'en' })).rejects.toThrow(/coords/);
    await expect(render('localize_place', { coords: '1,2', target: 'en', sourcecrs: 'EPSG:1' })).rejects.toThrow(
      /sourcecrs/,
    );
    // Any case, as maps_reverse_geocode takes it.
    expect(await render('localize_place', { coords: '127.1,37.3', target: 'en', sourcecrs: 'epsg:3857' })).toContain(
      '"sourcecrs":"EPSG:3857"',
    );
  });
});

describe('prompt argument completion', () => {
  it('refuses a missing or blank required argument and an unknown prompt, naming them', async () => {
    const get = (name: string, args: Record<string, string>) => h.client.getPrompt({ name, arguments: args });
    await expect(get('translate_and_summarize', { target: 'en' })).rejects.toThrow(
      /translate_and_summarize: text is required/,
    );
    await expect(get('translate_and_summarize', { text: ' \n ', target: 'en' })).rejects.toThrow(
      /text must not be empty/,
    );
    await expect(get('localize_place', { coords: '127.1,37.3' })).rejects.toThrow(/target is required/);
    await expect(get('no_such_prompt', {})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Prompt no_such_prompt not found/),
    });
    // Arguments a prompt does not know are ignored, as the SDK's McpServer did.
    await expect(render('translate_and_summarize', { text: 'Hello.', target: 'ko', extra: 'x' })).resolves.toContain(
      'Hello.',
    );
  });

  it('completes nothing for an argument without choices, and refuses an unknown prompt', async () => {
    expect(await completeArg('localize_place', 'coords', '12')).toEqual([]);
    expect(await completeArg('translate_and_summarize', 'nothing', '')).toEqual([]);
    await expect(completeArg('no_such_prompt', 'target', '')).rejects.toThrow(/Prompt no_such_prompt not found/);
  });

  it('completes target with every language when no source is chosen', async () => {
    expect(await completeArg('translate_and_summarize', 'target', '')).toEqual(CODES);
    expect(await completeArg('translate_and_summarize', 'target', '', { source: 'auto' })).toEqual(CODES);
  });

  it('limits target to the directions of the chosen source, reverse pairs included', async () => {
    const fromJa = await completeArg('translate_and_summarize', 'target', '', { source: 'ja' });
    expect(fromJa).toContain('ko');
    expect(fromJa).toContain('en');
    expect(fromJa).not.toContain('es');
    expect(fromJa).not.toContain('ja');
    expect(fromJa).toEqual(['ko', 'en', 'zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr']);
    // zh-TW is not a source of the table: the reverses of its pairs (ko, en, ja, zh-CN) come first; every other
    // target but zh-TW itself is sent as is.
    expect(await completeArg('summarize_and_translate', 'target', '', { source: 'zh-TW' })).toEqual([
      'ko',
      'en',
      'ja',
      'zh-CN',
      'vi',
      'th',
      'id',
      'fr',
      'es',
      'ru',
      'de',
      'it',
    ]);
    expect(await completeArg('translate_and_summarize', 'target', 'z', { source: 'en' })).toEqual(['zh-CN', 'zh-TW']);
    expect(await completeArg('translate_and_summarize', 'target', 'es', { source: 'ja' })).toEqual([]);
  });

  it('completes source with auto and the language codes, by code or name', async () => {
    expect(await completeArg('translate_and_summarize', 'source', '')).toEqual(['auto', ...CODES]);
    expect(await completeArg('translate_and_summarize', 'source', 'a')).toEqual(['auto']);
    expect(await completeArg('summarize_and_translate', 'source', 'e')).toEqual(['en', 'es']);
    expect(await completeArg('translate_and_summarize', 'source', 'Germ')).toEqual(['de']);
  });

  it('completes length and the arguments of localize_place', async () => {
    expect(await completeArg('translate_and_summarize', 'length', 'l')).toEqual(['long']);
    const targets = await completeArg('localize_place', 'target', '');
    expect(targets).toEqual(CODES.filter((c) => c !== 'ko'));
    expect(await completeArg('localize_place', 'sourcecrs', 'epsg')).toEqual(['EPSG:4326', 'EPSG:3857']);
    expect(await completeArg('localize_place', 'coords', '12')).toEqual([]);
  });
});
