/**
 * Every input a tool accepts has an answer at the default limits (SVC_MAX_RESULT_BYTES 100,000): a long prompt E12
 * repeats, an E3 translation with a large untranslated span, a page of E1 far over the limit. Where a result must be
 * cut, the note says what was cut and how to get every item left out. Through the built server over stdio, against
 * a recording upstream.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { recordedStdio } from '../../helpers/recorded-stdio.js';
import { spawnServer, textOf } from '../../helpers/spawn-server.js';
import { fullEnv, jsonBody } from '../../helpers/upstream.js';

const MAX = 100_000;

const recorded = recordedStdio();

const resultBytes = (result: CallToolResult) => Buffer.byteLength(JSON.stringify(result), 'utf8');
const texts = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : ''));

/** A completion as the service answers: result.text is the prompt followed by what was generated. */
const completion = (prompt: string, generated: string) => ({
  status: { code: '20000', message: 'OK' },
  result: { text: prompt + generated, stopReason: 'end_token', inputLength: prompt.length, outputLength: 9 },
});

describe('E12 repeats the prompt in result.text', () => {
  const GENERATED = ' 요약: 이것은 생성된 문장입니다.';

  it('a 20,000-character Korean prompt: the answer whole in structuredContent, the generated part in the text', async () => {
    const prompt = '한국어 문장입니다 '.repeat(2000);
    expect([...prompt].length).toBe(20_000);
    recorded.upstream.reply((req) => ({ body: completion((jsonBody(req) as { text: string }).text, GENERATED) }));
    const result = await recorded.server.call('textgen_create_completion', { text: prompt });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(recorded.upstream.requests).toHaveLength(1);
    const structured = result.structuredContent as { result: { text: string } };
    expect(structured.result.text).toBe(prompt + GENERATED);
    const [copy, note] = texts(result);
    expect(copy).toContain(GENERATED);
    expect(note).toMatch(
      /^Shortened to fit SVC_MAX_RESULT_BYTES \(100000 bytes.*result\.text leaves out characters \d+-\d+ of \d+ .*all of the prompt the answer repeats\. structuredContent holds the whole answer\.$/,
    );
    expect(note).toContain(` of ${[...(prompt + GENERATED)].length} (marked`);
    expect(resultBytes(result)).toBeLessThanOrEqual(MAX);
  });

  it("a 100,000-character Korean prompt (the tool's maximum): cut in the prompt's part, nothing generated lost", async () => {
    const prompt = '가나다라마바사아자차'.repeat(10_000);
    recorded.upstream.reply((req) => ({ body: completion((jsonBody(req) as { text: string }).text, GENERATED) }));
    const result = await recorded.server.call('textgen_create_completion', { text: prompt, includeTokens: true });
    expect(result.isError, textOf(result)).toBeFalsy();
    const structured = result.structuredContent as { result: { text: string; stopReason: string } };
    expect(structured.result.text.endsWith(GENERATED)).toBe(true);
    // The prompt's last words stay before what was generated (a prompt's closing cue marks where that starts).
    expect(structured.result.text).toMatch(/…\][가-차]{10,}가나다라마바사아자차 요약/u);
    expect(structured.result.text).toMatch(/^가나다라.*\[… \d+ characters cut …\]/su);
    expect(structured.result.stopReason).toBe('end_token');
    const [copy, note] = texts(result);
    expect(copy).toContain(GENERATED);
    expect(note).toContain('The cut characters repeat the prompt you sent: nothing generated is left out.');
    expect(resultBytes(result)).toBeLessThanOrEqual(MAX);
  });
});

describe('E3 with a large untranslated span', () => {
  it('comes back whole in structuredContent, its text copy cut with a note', async () => {
    // 25,000 Korean characters inside a span: they do not count toward the 5000 of rule 5 on ko -> en.
    const span = `<span translate="no">${'번역하지 않는 부분입니다. '.repeat(1800)}</span>`;
    const text = `안녕하세요. ${span} 감사합니다.`;
    const translatedText = `Hello. ${span} Thank you.`;
    recorded.upstream.reply({
      body: { message: { result: { srcLangType: 'ko', tarLangType: 'en', translatedText } } },
    });
    const result = await recorded.server.call('translation_translate_text', { source: 'ko', target: 'en', text });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(recorded.upstream.requests).toHaveLength(1);
    expect((result.structuredContent as { message: { result: { translatedText: string } } }).message.result).toEqual({
      srcLangType: 'ko',
      tarLangType: 'en',
      translatedText,
    });
    const [copy, note] = texts(result);
    expect(copy).toMatch(/^\{"message":\{"result":\{.*"translatedText":"Hello\. <span translate=\\"no\\">/s);
    expect(copy).toContain('Thank you.');
    expect(note).toMatch(
      /message\.result\.translatedText leaves out characters \d+-\d+ of \d+.*structuredContent holds the whole answer\. A client that reads only this text gets what is cut by sending less per call\.$/,
    );
    expect(resultBytes(result)).toBeLessThanOrEqual(MAX);
  });
});

describe("a list tool's note names a continuation that returns every item left out", () => {
  const group = (i: number) => ({
    kafkaVersionCode: 3050100,
    kafkaVersion: '3.5.1',
    configGroupNo: i,
    configGroupName: `config-group-${i}`,
    description: `A config group with a long enough description to weigh some bytes (${i}).`.repeat(3),
  });

  /** The continuation the note names, applied: the items it covers (1-based, over all pages). */
  function covered(note: string): { from: number; to: number; size: number } {
    const m = /ask with pageSize (\d+) and pageNo (\d+)(?: to (\d+))?/.exec(note);
    expect(m, note).not.toBeNull();
    const size = Number(m![1]);
    const first = Number(m![2]);
    const last = Number(m![3] ?? m![2]);
    return { from: (first - 1) * size + 1, to: last * size, size };
  }

  for (const pageNo of [1, 2, 7]) {
    it(`E1: a page of 2,000 groups at pageNo ${pageNo}, pageSize 2000`, async () => {
      const items = Array.from({ length: 2000 }, (_, i) => group((pageNo - 1) * 2000 + i + 1));
      recorded.upstream.reply({
        body: {
          code: 0,
          message: 'SUCCESS',
          result: { currentPage: pageNo, pageSize: 2000, totalCount: 20_000, kafkaConfigGroupList: items },
        },
      });
      const result = await recorded.server.call('streaming_list_config_groups', {
        kafkaVersionCode: 3050100,
        pageNo,
        pageSize: 2000,
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      const list = (result.structuredContent as { result: { kafkaConfigGroupList: { configGroupNo: number }[] } })
        .result.kafkaConfigGroupList;
      const shown = list.length;
      expect(shown).toBeLessThan(2000);
      const note = texts(result)[1]!;
      expect(note).toContain(`result.kafkaConfigGroupList shows ${shown} of 2000 items`);
      // The items left out are (pageNo-1)*2000 + shown + 1 .. pageNo*2000: the pages named start exactly at the
      // first, reach the last, and are no larger than what fitted.
      const { from, to, size } = covered(note);
      expect(from).toBe((pageNo - 1) * 2000 + shown + 1);
      expect(to).toBeGreaterThanOrEqual(pageNo * 2000);
      expect(size).toBeLessThanOrEqual(shown);
      expect(list.at(-1)!.configGroupNo).toBe(from - 1);
      expect(resultBytes(result)).toBeLessThanOrEqual(MAX);
    });
  }
});

describe('a result that cannot be cut', () => {
  it('says the upstream did the work and how to get the answer', async () => {
    // An answer of many small members: no list and no long text to shorten.
    const body = Object.fromEntries(Array.from({ length: 8000 }, (_, i) => [`member${i}`, `value ${i}`]));
    recorded.upstream.reply({ body: { ...body, success: true, availableName: true } });
    const result = await recorded.server.call('bigdata_check_app_name', {
      accountId: '7N42dgm5tFLK9N8MT7fHC7',
      name: 'my-app',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /\[result_too_large\].*The upstream did the work \(billed, where the service bills\): ask for less, or have SVC_MAX_RESULT_BYTES raised, to get it/,
    );
  });
});

describe('an answer over SVC_MAX_RESPONSE_BYTES', () => {
  it('is not read, and the refusal says the upstream may have done the work and how to get it', async () => {
    const small = await spawnServer(fullEnv(recorded.upstream.url, { SVC_MAX_RESPONSE_BYTES: '1024' }));
    try {
      recorded.upstream.reply({ body: completion('Once upon a time', ' there was a very long story. '.repeat(100)) });
      const result = await small.call('textgen_create_completion', { text: 'Once upon a time' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(
        'upstream answer (HTTP 200) is larger than 1024 bytes (SVC_MAX_RESPONSE_BYTES) and was not read: the upstream ' +
          'may have done the work (billed, where the service bills). Ask for less, or have SVC_MAX_RESPONSE_BYTES ' +
          'raised, to get it',
      );
    } finally {
      await small.close();
    }
  });
});
