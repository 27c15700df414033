/**
 * translate_and_summarize tells the truth about what it did (issue 33, items 4 and 12): a summary made from part
 * summaries says so, a completion cut at maxTokens is reported whichever ended last, tokens are what their
 * description says, the source language is every chunk's, a later step's failure comes with the finished (billed)
 * translations and the number of requests sent, and `summarize: false` translates only. Through the built server over
 * stdio, against a recording upstream.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../../../src/catalogue/fields.js';
import { startRecordingServer, type RecordedRequest, type RecordingServer } from '../../helpers/recording-server.js';
import { spawnServer, textOf, type SpawnedServer } from '../../helpers/spawn-server.js';
import { fullEnv, jsonBody } from '../../helpers/upstream.js';

let upstream: RecordingServer;
let server: SpawnedServer;

beforeAll(async () => {
  upstream = await startRecordingServer();
  server = await spawnServer(fullEnv(upstream.url, { SVC_MAX_RESULT_BYTES: '1000000' }));
}, 30_000);

afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

beforeEach(() => upstream.reset());

const isTranslation = (req: RecordedRequest) => req.url === '/nmt/v1/translation';
const translations = () => upstream.requests.filter(isTranslation);
const completions = () => upstream.requests.filter((r) => r.url.startsWith('/testapp/v1/completions/'));
const texts = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : ''));

const KOREAN = '이것은 한국어 문장입니다. ';
const JAPANESE = 'これは日本語の文です。';

/** The translation service: `translatedText` as `translate` makes it, srcLangType by the script most of it is in. */
const translator = (translate: (text: string) => string) => (req: RecordedRequest) => {
  const { text } = jsonBody(req) as { text: string };
  const hangul = text.match(/[\uac00-\ud7a3]/g)?.length ?? 0;
  const kana = text.match(/[\u3040-\u30ff]/g)?.length ?? 0;
  return {
    body: { message: { result: { srcLangType: hangul >= kana ? 'ko' : 'ja', translatedText: translate(text) } } },
  };
};

/** The completion service: what `answers` says for the n-th completion (1-based). */
const completer =
  (answers: (n: number) => { generated: string; stopReason: string }) => (req: RecordedRequest, n: number) => {
    const { text } = jsonBody(req) as { text: string };
    const { generated, stopReason } = answers(n);
    return {
      body: {
        status: { code: '20000', message: 'OK' },
        result: { text: text + generated, stopReason, inputLength: 100 + n, outputLength: 10 * n },
      },
    };
  };

/** One fallback that answers both services. */
function serve(
  translate: ReturnType<typeof translator>,
  complete: ReturnType<typeof completer> | ((req: RecordedRequest, n: number) => unknown),
) {
  let n = 0;
  upstream.setFallback((req) => (isTranslation(req) ? translate(req) : (complete(req, ++n) as never)));
}

describe('the result of a summary', () => {
  it('made from part summaries says so; a part cut at maxTokens gives stopReason length; tokens are summed', async () => {
    // Each translated chunk is 40% of what one prompt may hold: two parts, then the summary of their summaries.
    const grown = 'w '.repeat(Math.floor(SERVER_LIMITS.promptChars * 0.2));
    serve(
      translator(() => grown),
      completer((n) => ({ generated: ` part summary ${n}`, stopReason: n === 1 ? 'length' : 'end_token' })),
    );
    const sentence = 'A sentence of the source text, long enough to need three calls to translate. ';
    const text = sentence.repeat(Math.ceil(12_000 / sentence.length));
    const result = await server.call('translate_and_summarize', { text, source: 'ko', target: 'en' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(translations()).toHaveLength(3);
    expect(completions()).toHaveLength(3);
    expect(result.structuredContent).toMatchObject({
      summary: 'part summary 3',
      summaryParts: 2,
      chunks: 3,
      stopReason: 'length',
      // 101 + 102 + 103 in, 10 + 20 + 30 out: every completion, as the description says.
      tokens: { input: 306, output: 60 },
    });
    const [words] = texts(result);
    expect(words).toMatch(/^Summary \(English, made from the summaries of 2 parts\):\npart summary 3\n/);
    expect(words).toContain('stopReason length: summarizing part 1 of 2 stopped at maxTokens');
  });

  it('from one completion has no summaryParts, and its own stopReason', async () => {
    serve(
      translator(() => 'Hello.'),
      completer(() => ({ generated: ' A greeting.', stopReason: 'end_token' })),
    );
    const result = await server.call('translate_and_summarize', { text: '안녕하세요.', target: 'en' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const out = result.structuredContent as Record<string, unknown>;
    expect(out).toMatchObject({ summary: 'A greeting.', stopReason: 'end_token', sourceLanguage: 'ko' });
    expect(out).not.toHaveProperty('summaryParts');
    expect(out).not.toHaveProperty('sourceLanguages');
  });
});

describe('the source language under auto', () => {
  it("is every chunk's: mixed, and each chunk's detection, when they differ", async () => {
    serve(
      translator((t) => `[${t.length}]`),
      completer(() => ({ generated: ' ok', stopReason: 'end_token' })),
    );
    const text = KOREAN.repeat(400) + JAPANESE.repeat(500); // 6,400 Korean then 5,500 Japanese characters
    const result = await server.call('translate_and_summarize', { text, target: 'en' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const detected = translations().map((r) => {
      const chunk = (jsonBody(r) as { text: string }).text;
      return (chunk.match(/[\uac00-\ud7a3]/g)?.length ?? 0) >= (chunk.match(/[\u3040-\u30ff]/g)?.length ?? 0)
        ? 'ko'
        : 'ja';
    });
    expect(detected).toContain('ko');
    expect(detected).toContain('ja');
    expect(result.structuredContent).toMatchObject({ sourceLanguage: 'mixed', sourceLanguages: detected });
  });
});

describe('a later step that fails', () => {
  it('the summary: the whole translation comes with the failure, and the requests sent', async () => {
    serve(
      translator(() => 'Hello there.'),
      () => ({ status: 400, body: { status: { code: '40000', message: 'Bad request' } } }),
    );
    const result = await server.call('translate_and_summarize', { text: '안녕하세요.', target: 'en' });
    expect(result.isError).toBe(true);
    const [message, finished] = texts(result);
    expect(message).toMatch(
      /^translate_and_summarize failed at step "summarize" \[upstream_error\]: .*\(2 requests sent in all, 1 by this step\)$/s,
    );
    expect(finished).toBe(
      'The whole translation was finished (1 translation call, billed) before the failure.\n\n' +
        'Translation (English, source characters 1-6):\nHello there.',
    );
  });

  it('chunk 2 of 2 on an unsupported direction: chunk 1 comes with the failure, and what is left to translate', async () => {
    const text = KOREAN.repeat(300) + JAPANESE.repeat(300); // 4,800 Korean, 3,300 Japanese characters
    let n = 0;
    upstream.setFallback(() =>
      ++n === 1
        ? { body: { message: { result: { srcLangType: 'ko', translatedText: 'Korean part.' } } } }
        : { status: 400, body: { errorCode: 'N2MT04', errorMessage: 'unsupported direction ja -> vi' } },
    );
    const result = await server.call('translate_and_summarize', { text, target: 'vi' });
    expect(result.isError).toBe(true);
    expect(translations()).toHaveLength(2);
    const chunk1 = (jsonBody(translations()[0]!) as { text: string }).text;
    const [message, finished] = texts(result);
    expect(message).toMatch(
      /failed at step "translate chunk 2 of 2" \[upstream_error\].*\(2 requests sent in all, 1 by this step\)$/s,
    );
    const rest =
      /^1 of 2 translation calls were finished \(billed\) before the failure\. Not translated here: source characters (\d+)-(\d+) \(translate them with translation_translate_text\)\.\n\nTranslation \(Vietnamese, source characters 1-(\d+)\):\nKorean part\.$/.exec(
        finished!,
      );
    expect(rest, finished).not.toBeNull();
    const [from, to, end] = rest!.slice(1).map(Number);
    // What was left is exactly what chunk 1 did not cover, to the end of the text.
    expect(from).toBe(end! + 1);
    expect(text.slice(0, end).trim()).toBe(chunk1);
    expect(to).toBe(text.length);
  });
});

describe('summarize: false', () => {
  it('translates only: no completion, no summary, the same chunking', async () => {
    serve(
      translator((t) => `<${t.length}>`),
      () => ({ status: 500, body: {} }),
    );
    const text = KOREAN.repeat(700); // 11,200 characters: three chunks
    const result = await server.call('translate_and_summarize', { text, target: 'en', summarize: false });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(completions()).toHaveLength(0);
    const sent = translations().map((r) => (jsonBody(r) as { text: string }).text);
    expect(sent.length).toBeGreaterThan(1);
    const out = result.structuredContent as Record<string, unknown>;
    expect(out).toEqual({
      translation: sent.map((t) => `<${t.length}>`).join(' '),
      chunks: sent.length,
      sourceLanguage: 'ko',
      targetLanguage: 'en',
    });
    expect(textOf(result)).toBe(
      `Translation (English, ${sent.length} translation calls):\n${out.translation as string}`,
    );
  });
});
