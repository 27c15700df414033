import { describe, expect, it } from 'vitest';
import { generatedPart, summaryCue, summaryParameters, summaryPrompt } from '../../src/mcp/summary-prompt.js';
import { textgenRoutes } from '../../src/sandbox/services/textgen.js';
import { tokenize } from '../../src/sandbox/textgen/tokenizer.js';
import type { SandboxRequest, SandboxResponse } from '../../src/sandbox/types.js';
import { costRatio } from '../helpers/cost.js';

const ctx = { now: () => 0 };

async function complete(
  body: unknown,
  opts: { model?: string; headers?: Record<string, string> } = {},
): Promise<SandboxResponse> {
  const [route] = textgenRoutes();
  const model = opts.model ?? 'LK-D2';
  const req: SandboxRequest = {
    method: 'POST',
    rawUri: `/testapp/v1/completions/${model}`,
    params: { model },
    query: new URLSearchParams(),
    headers: { 'content-type': 'application/json', ...opts.headers },
    body,
  };
  return route!.handle(req, ctx);
}

interface Result {
  text: string;
  stopReason: string;
  inputLength: number;
  outputLength: number;
  inputTokens?: string[];
  outputTokens?: string[];
  probs?: number[];
  aiFilters?: { groupName: string; name: string; score: string }[];
}
async function ok(body: Record<string, unknown>): Promise<Result> {
  const res = await complete(body);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const json = res.json as { status: { code: string; message: string }; result: Result };
  expect(json.status).toEqual({ code: '20000', message: 'OK' });
  return json.result;
}
async function bad(body: unknown, opts: { model?: string; headers?: Record<string, string> } = {}) {
  const res = await complete(body, opts);
  return { http: res.status, status: (res.json as { status: { code: string; message: string } }).status };
}

const SHORT = 'Tell me about cloud migration.';
const LONG = 'Our team is planning a migration of every service to the new platform this year. '.repeat(12);

describe('sandbox E12 completions: route and envelope', () => {
  it('serves POST /testapp/v1/completions/:model with the studio keys', () => {
    expect(textgenRoutes().map((r) => [r.method, r.pattern, r.auth])).toEqual([
      ['POST', '/testapp/v1/completions/:model', 'studio'],
    ]);
  });

  it('answers application/json with the status envelope; text holds the prompt and the output', async () => {
    const res = await complete({ text: SHORT });
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/json');
    const result = (res.json as { result: Result }).result;
    expect(result.text.startsWith(SHORT)).toBe(true);
    expect(result.text.length).toBeGreaterThan(SHORT.length);
    expect(result.inputLength).toBe(tokenize(SHORT).length);
    expect(result.outputLength).toBeGreaterThan(0);
    expect(result.inputTokens).toBeUndefined();
    expect(result.outputTokens).toBeUndefined();
    expect(result.probs).toBeUndefined();
  });

  it('ends naturally (end_token) for a short prompt', async () => {
    const result = await ok({ text: SHORT });
    expect(result.stopReason).toBe('end_token');
    expect(result.outputLength).toBeLessThan(100);
    expect(result.text).toMatch(/\.$/);
  });

  // Issue 26: the output is marked as simulated in a field a client sees, not only in words inside the text.
  it.each([[SHORT], ['Summarize in one sentence: The sky is blue. The grass is green.']])(
    'marks the result as simulated, for %j',
    async (text) => {
      const result = (await ok({ text })) as Result & { simulated?: unknown };
      expect(typeof result.simulated).toBe('string');
      expect(result.simulated).toMatch(/sandbox/i);
      expect(result.simulated).toMatch(/not a language model/);
    },
  );

  it('completes an empty prompt: the spec sets no minimum length (issue 26)', async () => {
    const result = await ok({ text: '' });
    expect(result.inputLength).toBe(0);
    expect(result.outputLength).toBeGreaterThan(0);
  });

  it('writes Korean after a Korean prompt', async () => {
    const prompt = '클라우드 마이그레이션에 대해 설명해 주세요.';
    const result = await ok({ text: prompt });
    expect(result.text.slice(prompt.length)).toMatch(/\p{Script=Hangul}/u);
  });
});

describe('sandbox E12 completions: generation controls', () => {
  it('honours maxTokens (stopReason length)', async () => {
    const result = await ok({ text: SHORT, maxTokens: 5, includeTokens: true });
    expect(result.stopReason).toBe('length');
    expect(result.outputLength).toBe(5);
    expect(result.outputTokens).toHaveLength(5);
    expect(result.text).toBe(SHORT + result.outputTokens!.join(''));
  });

  it('stops at the default maxTokens of 100 for a long prompt', async () => {
    const result = await ok({ text: LONG });
    expect(result.stopReason).toBe('length');
    expect(result.outputLength).toBe(100);
    const max = await ok({ text: LONG, maxTokens: 2048 });
    expect(max.outputLength).toBeGreaterThan(100);
  });

  it('stops before the first stopBefore sequence (stopReason stop_before)', async () => {
    const base = await ok({ text: LONG, includeTokens: true });
    const generated = base.outputTokens!.join('');
    const word = base.outputTokens![6]!.trim();
    const cut = generated.indexOf(word);
    expect(cut).toBeGreaterThan(0);
    const stopped = await ok({ text: LONG, includeTokens: true, stopBefore: ['no such sequence', word] });
    expect(stopped.stopReason).toBe('stop_before');
    expect(stopped.text).toBe(LONG + generated.slice(0, cut));
    expect(stopped.text.slice(LONG.length)).not.toContain(word);
    expect(stopped.outputTokens!.join('')).toBe(generated.slice(0, cut));
    expect(stopped.outputLength).toBe(stopped.outputTokens!.length);
  });

  it('stops mid-token when the sequence starts inside one', async () => {
    const base = await ok({ text: SHORT, includeTokens: true });
    const token = base.outputTokens![1]!; // e.g. " team"
    const piece = token.slice(2, 4);
    const generated = base.outputTokens!.join('');
    const stopped = await ok({ text: SHORT, stopBefore: [piece] });
    expect(stopped.stopReason).toBe('stop_before');
    expect(stopped.text).toBe(SHORT + generated.slice(0, generated.indexOf(piece)));
  });

  it('appends start after the input and restart after the output', async () => {
    const result = await ok({ text: 'Q: What is a sandbox?', start: '\nA:', restart: '\nQ:', includeTokens: true });
    expect(result.text.startsWith('Q: What is a sandbox?\nA:')).toBe(true);
    expect(result.text.endsWith('\nQ:')).toBe(true);
    expect(result.text).toBe('Q: What is a sandbox?\nA:' + result.outputTokens!.join('') + '\nQ:');
    expect(result.inputTokens!.join('')).toBe('Q: What is a sandbox?\nA:');
    expect(result.inputLength).toBe(result.inputTokens!.length);
  });

  it('includes the tokens and their probabilities only when asked', async () => {
    const result = await ok({ text: SHORT, includeTokens: true });
    expect(result.inputTokens!.join('')).toBe(SHORT);
    expect(result.inputLength).toBe(result.inputTokens!.length);
    expect(result.outputLength).toBe(result.outputTokens!.length);
    expect(result.probs).toHaveLength(result.outputTokens!.length);
    for (const p of result.probs!) expect(p > 0 && p <= 1).toBe(true);
  });

  it('is deterministic: the same request gives the same answer', async () => {
    const body = {
      text: LONG,
      temperature: 0.9,
      topK: 4,
      topP: 0.95,
      repeatPenalty: 1.5,
      maxTokens: 60,
      includeTokens: true,
    };
    expect(await ok(body)).toEqual(await ok(body));
  });

  it('lets temperature and the sampling controls change the text', async () => {
    const texts = new Set<string>();
    for (const temperature of [0.1, 0.3, 0.5, 0.7, 1])
      texts.add((await ok({ text: LONG, temperature, maxTokens: 40 })).text);
    expect(texts.size).toBeGreaterThan(1);
  });
});

describe('sandbox E12 completions: AI filters', () => {
  it('includes the three categories by default, scores 0-2', async () => {
    const result = await ok({ text: SHORT });
    expect(result.aiFilters!.map((f) => `${f.groupName}/${f.name}`)).toEqual([
      'curse/discrimination',
      'curse/insult',
      'unsafeContents/sexualHarassment',
    ]);
    for (const f of result.aiFilters!) expect(['0', '1', '2']).toContain(f.score);
    expect(result.aiFilters!.every((f) => f.score === '2')).toBe(true);
  });

  it('scores marker words higher', async () => {
    const result = await ok({ text: 'You stupid idiot.' });
    expect(result.aiFilters!.find((f) => f.name === 'insult')!.score).toBe('0');
    expect(result.aiFilters!.find((f) => f.name === 'discrimination')!.score).toBe('2');
  });

  it('leaves them out with includeAiFilters false', async () => {
    expect((await ok({ text: SHORT, includeAiFilters: false })).aiFilters).toBeUndefined();
  });
});

describe('sandbox E12 completions: errors', () => {
  it('answers 404 / 40400 for an unknown model', async () => {
    const e = await bad({ text: SHORT }, { model: 'LK-D9' });
    expect(e.http).toBe(404);
    expect(e.status.code).toBe('40400');
    expect(e.status.message).toContain('LK-D9');
  });

  it.each([
    [undefined],
    [[SHORT]],
    [{}],
    [{ text: 5 }],
    [{ text: SHORT, maxTokens: 0 }],
    [{ text: SHORT, maxTokens: 2049 }],
    [{ text: SHORT, maxTokens: 1.5 }],
    [{ text: SHORT, maxTokens: '10' }],
    [{ text: SHORT, temperature: 0 }],
    [{ text: SHORT, temperature: 1.01 }],
    [{ text: SHORT, repeatPenalty: 0 }],
    [{ text: SHORT, repeatPenalty: 10.5 }],
    [{ text: SHORT, topK: -1 }],
    [{ text: SHORT, topK: 129 }],
    [{ text: SHORT, topK: 2.5 }],
    [{ text: SHORT, topP: 0 }],
    [{ text: SHORT, topP: 1.2 }],
    [{ text: SHORT, stopBefore: '###' }],
    [{ text: SHORT, stopBefore: [''] }],
    [{ text: SHORT, includeTokens: 'yes' }],
    [{ text: SHORT, includeAiFilters: 1 }],
    [{ text: SHORT, start: 3 }],
  ])('400 / 40000 for %j', async (body) => {
    const e = await bad(body);
    expect(e.http).toBe(400);
    expect(e.status.code).toBe('40000');
  });

  it('accepts the edges of every range', async () => {
    await ok({ text: SHORT, maxTokens: 1, temperature: 1, repeatPenalty: 10, topK: 128, topP: 1 });
    await ok({ text: SHORT, maxTokens: 2048, temperature: 0.01, repeatPenalty: 0.01, topK: 0, topP: 0.01 });
  });

  it('refuses a body that is not application/json', async () => {
    const e = await bad({ text: SHORT }, { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(e.http).toBe(400);
    expect(e.status.code).toBe('40000');
  });
});

describe('sandbox E12 completions: request id', () => {
  it('echoes x-svc-studio-request-id, on errors too', async () => {
    const ok = await complete({ text: SHORT }, { headers: { 'x-svc-studio-request-id': 'req-123' } });
    expect(ok.headers).toEqual({ 'x-svc-studio-request-id': 'req-123' });
    const err = await complete({}, { headers: { 'x-svc-studio-request-id': 'req-456' } });
    expect(err.headers).toEqual({ 'x-svc-studio-request-id': 'req-456' });
    expect((await complete({ text: SHORT })).headers).toBeUndefined();
  });
});

describe('sandbox E12 completions: a summarising prompt gets an extractive, marked summary', () => {
  const KOREAN = [
    '서울은 한국의 수도입니다.',
    '인구는 약 천만 명입니다.',
    '한강이 도시를 가로지릅니다.',
    '많은 관광객이 궁궐을 찾습니다.',
    '지하철이 도시 곳곳을 연결합니다.',
    '겨울에는 눈이 자주 옵니다.',
    '봄에는 벚꽃이 핍니다.',
    '여름에는 비가 많이 옵니다.',
    '가을 하늘은 맑습니다.',
    '음식이 다양합니다.',
  ];
  const generated = async (text: string, extra: Record<string, unknown> = {}) => {
    const result = await ok({ text, ...extra });
    expect(result.text.startsWith(text)).toBe(true);
    return { ...result, generated: result.text.slice(text.length) };
  };

  // The prompt the server sends (src/mcp/summary-prompt.ts): the count is read from its words, the sentences are
  // the text's own, in its language; "short" is one or two sentences (one, the lower bound), never seven.
  it.each([
    ['short', 1],
    ['medium', 3],
    ['long', 8],
  ] as const)('%s: the first %i sentences of the text, behind the marker', async (length, count) => {
    const prompt = summaryPrompt(KOREAN.join(' '), 'Korean', length);
    const result = await generated(prompt, { ...summaryParameters(length), includeAiFilters: false });
    const expected = `[simulated summary: ${count === 1 ? 'first sentence' : `first ${count} sentences`} of the input] ${KOREAN.slice(0, count).join(' ')}`;
    expect(result.generated).toBe(expected);
    expect(result.stopReason).toBe('end_token');
    expect(generatedPart(result.text, prompt, summaryCue('Korean'))).toBe(expected);
  });

  it('keeps CJK sentences as written, across line breaks, and says when it has fewer than asked', async () => {
    const prompt = summaryPrompt('東京は日本の首都です。\n人口は多いです！', 'Japanese', 'long');
    expect((await generated(prompt)).generated).toBe(
      '[simulated summary: first 2 sentences of the input] 東京は日本の首都です。人口は多いです！',
    );
  });

  it('reads a plain instruction: the count in words or digits, the text after the colon or the first line', async () => {
    expect((await generated('Summarize in one sentence: The cat sat. The dog ran. The bird flew.')).generated).toBe(
      ' [simulated summary: first sentence of the input] The cat sat.',
    );
    expect(
      (await generated('Summarise this in 2 to 3 sentences:\nThe cat sat.\nThe dog ran. The bird flew.')).generated,
    ).toBe(' [simulated summary: first 2 sentences of the input] The cat sat. The dog ran.');
    // No count given: three sentences.
    expect((await generated('Please write a summary of the text below.\nA b. C d. E f. G h.')).generated).toBe(
      ' [simulated summary: first 3 sentences of the input] A b. C d. E f.',
    );
  });

  it('honours maxTokens and stopBefore, and is deterministic', async () => {
    const prompt = summaryPrompt(KOREAN.join(' '), 'Korean', 'long');
    const cut = await ok({ text: prompt, maxTokens: 5, includeTokens: true });
    expect(cut.stopReason).toBe('length');
    expect(cut.outputTokens).toEqual(['[', 'simulated', ' summary', ':', ' first']);
    const stopped = await generated(prompt, { stopBefore: ['한강'] });
    expect(stopped.stopReason).toBe('stop_before');
    expect(stopped.generated).toBe(
      `[simulated summary: first 8 sentences of the input] ${KOREAN.slice(0, 2).join(' ')} `,
    );
    expect(await ok({ text: prompt, includeTokens: true })).toEqual(await ok({ text: prompt, includeTokens: true }));
  });

  it('leaves other prompts to the generator (a summary needs a text to summarise)', async () => {
    expect((await generated('Summarize the benefits of cloud migration.')).generated).not.toContain(
      '[simulated summary',
    );
    expect((await generated(SHORT)).generated).not.toContain('[simulated summary');
  });

  /** How many plain passes over a text summarising it may cost (2 to 20 here). */
  const PLAIN_PASSES = 500;
  // Bounded: one pass over the text. Prompts of twice the tool's largest text (100,000 characters), shaped to make a
  // backtracking or quadratic split run for minutes.
  it.each([
    ['one sentence without an end', `Summarize:\n${'word '.repeat(40_000)}`],
    ['a run of dots', `Summarize:\n${'.'.repeat(200_000)}x`],
    ['spaces after a number', `Summarize in one${' '.repeat(200_000)}x:\nA.`],
    ['the server prompt around 200,000 characters', summaryPrompt('가. '.repeat(66_667), 'Korean', 'long')],
  ])('summarises %s in linear time', async (_, text) => {
    const result = await ok({ text, maxTokens: 2048 });
    expect(result.text.length).toBeGreaterThan(text.length);
    // Against a plain pass over the same text (the body's JSON, written and read): some work starts only past
    // 100,000 characters, so that a smaller text is no baseline. A quadratic split takes 10,000 times as long.
    const body = { text, maxTokens: 2048 };
    const summarise = () => ok(body);
    const plainPass = () => JSON.parse(JSON.stringify(body)) as unknown;
    expect(await costRatio(summarise, plainPass)).toBeLessThan(PLAIN_PASSES);
  });
});
