import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Harness } from './harness.js';

const TRANSLATE = 'POST /nmt/v1/translation';
const COMPLETE = 'POST /testapp/v1/completions/:model';

let h: Harness;
beforeAll(async () => {
  h = await connect();
});
afterEach(() => {
  h.sandbox.faults.clear();
  h.sandbox.requests.clear();
});
afterAll(async () => {
  await h?.close();
});

const sent = (prefix: string) =>
  h.sandbox.requests.entries
    .filter((r) => r.rawUri.startsWith(prefix))
    .map((r) => JSON.parse(r.body) as Record<string, unknown>);
const translations = () => sent('/nmt/v1/translation');
const completions = () => sent('/testapp/v1/completions/');

/** Counted as the translation service counts: spans and their tags excluded, code points. */
const counted = (text: string) => [...text.replace(/<span translate="no">[\s\S]*?<\/span>/g, '')].length;

/** About 14,000 characters of sentences with a long untranslated span where a naive cut at 5000 would fall. */
function longArticle(): { text: string; span: string } {
  const sentences = Array.from(
    { length: 190 },
    (_, i) => `Paragraph sentence ${i} describes the harbour, the trains and the hills. `,
  );
  const span = `<span translate="no">${'Keep this. '.repeat(300)}</span>`;
  const before = sentences.slice(0, 66).join('');
  return { text: `${before}Brand ${span} stays. ${sentences.slice(66).join('')}`.trim(), span };
}

describe('translate_and_summarize tool', () => {
  it('is listed with a description, schemas and all four annotations', async () => {
    const { tools } = await h.client.listTools();
    const tool = tools.find((t) => t.name === 'translate_and_summarize')!;
    expect(tool).toBeDefined();
    expect(tool.name).toMatch(/^[a-z0-9_]{1,48}$/);
    expect(tool.title).toBeTruthy();
    expect(tool.description).toMatch(/5000/);
    expect(tool.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(tool.inputSchema.required).toEqual(['text', 'target']);
    expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(
      ['glossaryKey', 'honorific', 'length', 'source', 'summarize', 'target', 'text'].sort(),
    );
    expect(tool.inputSchema.additionalProperties).toBe(false);
    expect(tool.outputSchema?.properties).toHaveProperty('summary');
  });

  it('translates, then summarizes the translation, with token counts', async () => {
    const result = await h.client.callTool({
      name: 'translate_and_summarize',
      arguments: { text: 'Hello. Thank you.', target: 'ko', source: 'en' },
    });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as Record<string, unknown>;
    expect(out).toMatchObject({ chunks: 1, sourceLanguage: 'en', targetLanguage: 'ko' });
    expect(out.translation).toMatch(/안녕/);
    expect(typeof out.summary).toBe('string');
    expect(out.summary).not.toBe('');
    expect(out.summary).not.toContain('### Instruction');
    const tokens = out.tokens as { input: number; output: number };
    expect(tokens.input).toBeGreaterThan(0);
    expect(tokens.output).toBeGreaterThan(0);
    // The text carries what the result holds, for clients that pass only text to the model (issue 18).
    expect(result.content).toEqual([
      {
        type: 'text',
        text: `Summary (Korean):\n${out.summary as string}\n\nTranslation (Korean, 1 translation call):\n${out.translation as string}`,
      },
    ]);

    expect(translations()).toEqual([{ source: 'en', target: 'ko', text: 'Hello. Thank you.' }]);
    const [completion] = completions();
    expect(completion).toMatchObject({
      maxTokens: 300,
      temperature: 0.3,
      topP: 0.8,
      stopBefore: ['###'],
      includeAiFilters: false,
    });
    expect(completion!.text).toMatch(/^### Instruction\nSummarize the text below in Korean/);
    expect(completion!.text).toContain(out.translation as string);
    expect(h.logs.some((l) => l.includes('"tool":"translate_and_summarize"') && l.includes('"outcome":"ok"'))).toBe(
      true,
    );
  });

  it('reports the detected source language with source auto', async () => {
    const result = await h.client.callTool({
      name: 'translate_and_summarize',
      arguments: { text: '안녕하세요.', target: 'en' },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ sourceLanguage: 'ko', chunks: 1 });
    expect(translations()[0]).toMatchObject({ source: 'auto', target: 'en' });
  });

  it('splits a text over 5000 characters into several translation calls, with progress notifications', async () => {
    const { text, span } = longArticle();
    expect(counted(text)).toBeGreaterThan(10_000);
    const progress: Progress[] = [];
    const result = await h.client.callTool(
      { name: 'translate_and_summarize', arguments: { text, target: 'ja', source: 'en', length: 'short' } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as { chunks: number; translation: string; summary: string };

    const sentTexts = translations().map((b) => b.text as string);
    expect(sentTexts.length).toBe(3);
    expect(out.chunks).toBe(3);
    for (const piece of sentTexts) expect(counted(piece)).toBeLessThanOrEqual(5000);
    // The pieces are the text, in order, cut between sentences; the span travels whole in one of them.
    expect(sentTexts.join(' ')).toBe(text);
    for (const piece of sentTexts.slice(0, -1)) expect(piece).toMatch(/\.$/);
    expect(sentTexts.filter((p) => p.includes(span))).toHaveLength(1);
    expect(out.translation).toContain(span);

    expect(completions()).toHaveLength(1);
    expect(completions()[0]).toMatchObject({ maxTokens: 120 });
    // Each step is reported when it starts (progress = steps done, strictly increasing); the result ends the flow.
    // The messages say how much of the flow's deadline is left (SVC_WORKFLOW_TIMEOUT_MS, 180 s by default).
    expect(progress.map((p) => [p.progress, p.total, p.message?.replace(/\(\d+ s left\)/, '(N s left)')])).toEqual([
      [0, 4, 'translating chunk 1 of 3 (N s left)'],
      [1, 4, 'translating chunk 2 of 3 (N s left)'],
      [2, 4, 'translating chunk 3 of 3 (N s left)'],
      [3, 4, 'summarizing (N s left)'],
    ]);
    expect(Number(/\((\d+) s left\)/.exec(progress[0]!.message!)![1])).toBeGreaterThan(170);
  });

  // Issue 33, item 12: a translation alone, with the same chunking and progress.
  it('translates only with summarize false: the same pieces, progress over them, no completion', async () => {
    const { text } = longArticle();
    const progress: Progress[] = [];
    const result = await h.client.callTool(
      { name: 'translate_and_summarize', arguments: { text, target: 'ja', source: 'en', summarize: false } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(
      translations()
        .map((b) => b.text as string)
        .join(' '),
    ).toBe(text);
    expect(completions()).toHaveLength(0);
    expect(result.structuredContent).not.toHaveProperty('summary');
    expect(progress.map((p) => [p.progress, p.total, p.message?.replace(/\(\d+ s left\)/, '(N s left)')])).toEqual([
      [0, 3, 'translating chunk 1 of 3 (N s left)'],
      [1, 3, 'translating chunk 2 of 3 (N s left)'],
      [2, 3, 'translating chunk 3 of 3 (N s left)'],
    ]);
  });

  // Issue 9: the chunker counts as the E3 tool counts, so every piece it sends passes E3's own check.
  it('translates ko -> es text of 4,990 characters plus a 100-character span (span text counts there)', async () => {
    const span = `<span translate="no">${'n'.repeat(100 - 28)}</span>`;
    const text = `${'가나다라마바사아자. '.repeat(453)}가나다라마바사${span}`;
    expect([...text].length).toBe(5090);
    const result = await h.client.callTool({
      name: 'translate_and_summarize',
      arguments: { text, target: 'es', source: 'ko' },
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ chunks: 2 });
    for (const piece of translations().map((b) => b.text as string))
      expect([...piece].length).toBeLessThanOrEqual(5000);
  });

  it('translates a 12,000-character ko -> es text full of spans, every piece within the limit', async () => {
    const sentence =
      '서울의 <span translate="no">ACME</span> 매장은 <span class="notranslate">ACME Store</span>입니다. ';
    const text = sentence
      .repeat(Math.ceil(12_000 / sentence.length))
      .slice(0, 12_000)
      .trimEnd();
    const result = await h.client.callTool({
      name: 'translate_and_summarize',
      arguments: { text, target: 'es', source: 'ko' },
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const pieces = translations().map((b) => b.text as string);
    expect(pieces.length).toBe(3);
    for (const piece of pieces) expect([...piece].length).toBeLessThanOrEqual(5000);
  });

  it('with source auto and a target no source can use spans into, counts the spans too', async () => {
    const text = `${'Hello. '.repeat(700)}<span translate="no">${'k'.repeat(200)}</span>`;
    const result = await h.client.callTool({ name: 'translate_and_summarize', arguments: { text, target: 'de' } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(translations().length).toBe(2);
  });

  it('sends no progress notifications when none were asked for', async () => {
    const result = await h.client.callTool({
      name: 'translate_and_summarize',
      arguments: { text: 'Hello.', target: 'ko' },
    });
    expect(result.isError).toBeFalsy();
  });

  it('stops sending requests when the call is cancelled', async () => {
    const { text } = longArticle();
    h.sandbox.faults.set(TRANSLATE, { latencyMs: 300 });
    const controller = new AbortController();
    let atAbort = -1;
    const call = h.client.callTool(
      { name: 'translate_and_summarize', arguments: { text: `${text} ${text}`, target: 'ko', source: 'en' } },
      undefined,
      {
        signal: controller.signal,
        // Abort when the second chunk starts, i.e. after one translation came back.
        onprogress: (p) => {
          if (controller.signal.aborted || p.progress < 1) return;
          atAbort = translations().length;
          controller.abort();
        },
      },
    );
    await expect(call).rejects.toThrow(/abort/i);
    expect(atAbort).toBe(1);
    await new Promise((r) => setTimeout(r, 50));
    const soonAfter = translations().length;
    await new Promise((r) => setTimeout(r, 900)); // three times the latency: a further request would be seen
    // At most the one request already under way when the abort arrived; nothing after it, and no completion.
    expect(translations().length).toBe(soonAfter);
    expect(soonAfter).toBeLessThanOrEqual(2);
    expect(completions()).toHaveLength(0);
    expect(
      h.logs.some((l) => l.includes('"tool":"translate_and_summarize"') && l.includes('"outcome":"cancelled"')),
    ).toBe(true);
  });

  it('refuses invalid arguments before sending anything', async () => {
    const result = await h.client.callTool({
      name: 'translate_and_summarize',
      arguments: { text: 'Hello.', target: 'es', source: 'ja', extra: 1 },
    });
    expect(result.isError).toBe(true);
    const message = (result.content as { text: string }[])[0]!.text;
    expect(message).toContain('step "check arguments"');
    expect(message).toContain('ja -> es is not a supported direction');
    expect(message).toContain('unknown argument(s) "extra"');
    expect(h.sandbox.requests.entries).toHaveLength(0);
  });

  it('names the step that failed', async () => {
    h.sandbox.faults.set(COMPLETE, { status: 500, times: 1 });
    const summary = await h.client.callTool({
      name: 'translate_and_summarize',
      arguments: { text: 'Hello.', target: 'ko' },
    });
    expect(summary.isError).toBe(true);
    expect((summary.content as { text: string }[])[0]!.text).toMatch(/failed at step "summarize" \[upstream_error\]/);

    const { text } = longArticle();
    h.sandbox.faults.set(TRANSLATE, { status: 500, times: 1 });
    h.sandbox.requests.clear();
    const translate = await h.client.callTool({ name: 'translate_and_summarize', arguments: { text, target: 'ko' } });
    expect(translate.isError).toBe(true);
    expect((translate.content as { text: string }[])[0]!.text).toMatch(/failed at step "translate chunk 1 of 3"/);
    expect(translations()).toHaveLength(1);
    expect(completions()).toHaveLength(0);
  });
});

describe('translate_and_summarize result size', () => {
  it('keeps whole translated pieces within SVC_MAX_RESULT_BYTES, in the text too, and says which part of the source was left out', async () => {
    const small = await connect({ env: { SVC_MAX_RESULT_BYTES: '24000' } });
    try {
      const { text } = longArticle();
      const result = await small.client.callTool({
        name: 'translate_and_summarize',
        arguments: { text, target: 'ja', source: 'en' },
      });
      expect(result.isError).toBeFalsy();
      expect(Buffer.byteLength(JSON.stringify(result), 'utf8')).toBeLessThanOrEqual(24000);
      const out = result.structuredContent as { translation: string; chunks: number; summary: string };
      expect(out.chunks).toBe(3);
      const words = (result.content as { text: string }[])[0]!.text;
      expect(result.content).toHaveLength(1);
      // What was kept is the translation of whole pieces, from the start, and the text carries it with the summary.
      expect(out.translation.length).toBeGreaterThan(0);
      expect(words).toBe(
        `Summary (Japanese):\n${out.summary}\n\nTranslation (Japanese, 3 translation calls):\n${out.translation}\n\n` +
          words.slice(words.indexOf('Shortened to fit')),
      );
      const note =
        /^Shortened to fit SVC_MAX_RESULT_BYTES \(24000 bytes, about 6000 tokens\): translation shows the first (\d) of 3 translated pieces \(source characters 1-(\d+)\)\. To get the rest, translate characters (\d+)-(\d+) of the source text with translation_translate_text\.$/.exec(
          words.slice(words.indexOf('Shortened to fit')),
        );
      expect(note, words).not.toBeNull();
      const [kept, end, from, to] = note!.slice(1).map(Number);
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(3);
      expect(from).toBe(end! + 1);
      expect(to).toBe(text.length);
    } finally {
      await small.close();
    }
  });
});

describe('translate_and_summarize: what the translation tool takes, it takes (issue 26)', () => {
  it('sends an empty glossaryKey on, as translation_translate_text does', async () => {
    const result = await h.client.callTool({
      name: 'translate_and_summarize',
      arguments: { text: 'Hello. Thank you.', target: 'ko', source: 'en', glossaryKey: '' },
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(translations()).toEqual([{ source: 'en', target: 'ko', text: 'Hello. Thank you.', glossaryKey: '' }]);
  });

  it('states its limit, not "any length"', async () => {
    const { tools } = await h.client.listTools();
    const description = tools.find((t) => t.name === 'translate_and_summarize')!.description!;
    expect(description).not.toMatch(/any length/);
    expect(description).toContain('50,000');
  });
});
