/**
 * The largest text the prompts and the workflow tool accept is split in time and memory linear in its length (issue
 * 19): sentence splitting used to keep every segment of the segmenter, each with a copy of the whole text, and count
 * each chunk again at every sentence; 50,000 characters of short Korean sentences took 5 s and 1.7 GB, 450 KB ran the
 * process out of memory.
 *
 * The bounds are generous for a loaded two-core machine (the fixed code takes 0.1-0.2 s and a few MiB to split the
 * text, 0.3-0.9 s for the whole workflow call with the sandbox) and far below what the quadratic code needs. Memory is
 * the growth of the process's peak resident size, which counts
 * garbage not yet collected as well.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkText, MAX_TEXT_LENGTH } from '../../src/mcp/chunking.js';
import { connect, type Harness } from './harness.js';

const TIME_BOUND_MS = 2_000;
/** The workflow call also runs eleven translations and a completion of 50,000 characters in the sandbox. */
const WORKFLOW_TIME_BOUND_MS = 5_000;
const PEAK_GROWTH_BOUND_MIB = 150;

/** Short Korean sentences, one per line: the most sentences per character (the red team's input). */
const sentences = (length: number) => '가.\n'.repeat(Math.ceil(length / 3)).slice(0, length);
const LARGEST = sentences(MAX_TEXT_LENGTH);
/** 16,667 sentences of three characters (the last of two); a piece of at most 5000 characters holds 1,666 of them. */
const PIECES = Math.ceil(Math.ceil(MAX_TEXT_LENGTH / 3) / Math.floor(5000 / 3));

/** How long `work` took and how much it raised the process's peak resident size. */
async function measure<T>(work: () => T | Promise<T>): Promise<{ value: T; ms: number; peakGrowthMiB: number }> {
  const peakBefore = process.resourceUsage().maxRSS; // KiB
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  return { value, ms, peakGrowthMiB: (process.resourceUsage().maxRSS - peakBefore) / 1024 };
}

let h: Harness;
beforeAll(async () => {
  h = await connect();
});
afterAll(async () => {
  await h?.close();
});

const promptText = async (name: string, text: string) => {
  const result = await h.client.getPrompt({ name, arguments: { text, target: 'en', source: 'ko' } });
  const content = result.messages[0]!.content;
  return content.type === 'text' ? content.text : '';
};

describe(`the largest accepted text (${MAX_TEXT_LENGTH} characters of short sentences)`, () => {
  it(`is chunked in under ${TIME_BOUND_MS} ms and ${PEAK_GROWTH_BOUND_MIB} MiB`, async () => {
    const {
      value: chunks,
      ms,
      peakGrowthMiB,
    } = await measure(() => chunkText(LARGEST, { source: 'ko', target: 'en' }));
    expect(chunks.join('')).toBe(LARGEST);
    expect(chunks.length).toBe(PIECES);
    expect(ms).toBeLessThan(TIME_BOUND_MS);
    expect(peakGrowthMiB).toBeLessThan(PEAK_GROWTH_BOUND_MIB);
  });

  it.each(['translate_and_summarize', 'summarize_and_translate'])(
    `renders prompt %s in under ${TIME_BOUND_MS} ms and ${PEAK_GROWTH_BOUND_MIB} MiB`,
    async (name) => {
      const { value: text, ms, peakGrowthMiB } = await measure(() => promptText(name, LARGEST));
      expect(text).toContain(`--- piece ${PIECES} of ${PIECES} ---`);
      expect(ms).toBeLessThan(TIME_BOUND_MS);
      expect(peakGrowthMiB).toBeLessThan(PEAK_GROWTH_BOUND_MIB);
    },
  );

  it(`runs through the workflow tool in under ${WORKFLOW_TIME_BOUND_MS} ms and ${PEAK_GROWTH_BOUND_MIB} MiB (sandbox upstream)`, async () => {
    const {
      value: result,
      ms,
      peakGrowthMiB,
    } = await measure(() =>
      h.client.callTool({ name: 'translate_and_summarize', arguments: { text: LARGEST, target: 'en', source: 'ko' } }),
    );
    expect(result.isError, JSON.stringify(result.content).slice(0, 500)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ chunks: PIECES });
    expect(ms).toBeLessThan(WORKFLOW_TIME_BOUND_MS);
    expect(peakGrowthMiB).toBeLessThan(PEAK_GROWTH_BOUND_MIB);
  });
});

describe('a longer text', () => {
  it.each(['translate_and_summarize', 'summarize_and_translate'])(
    'is refused by prompt %s, naming the argument and the limit',
    async (name) => {
      await expect(promptText(name, LARGEST + '.')).rejects.toThrow(
        `Invalid arguments for prompt ${name}: text must be at most ${MAX_TEXT_LENGTH} characters (got ${MAX_TEXT_LENGTH + 1})`,
      );
    },
  );

  it('of 450 KB is refused at once by the prompt, as by the workflow tool', async () => {
    const huge = sentences(450_000);
    const { value: refused, ms } = await measure(() =>
      promptText('translate_and_summarize', huge).then(
        () => undefined,
        (error: Error) => error,
      ),
    );
    expect(refused?.message).toContain(`text must be at most ${MAX_TEXT_LENGTH} characters (got 450000)`);
    expect(ms).toBeLessThan(TIME_BOUND_MS);
    const tool = await h.client.callTool({
      name: 'translate_and_summarize',
      arguments: { text: huge, target: 'en', source: 'ko' },
    });
    expect(tool.isError).toBe(true);
    expect(JSON.stringify(tool.content)).toContain(`${MAX_TEXT_LENGTH}`);
  });

  it('says the limit in the prompt argument description', async () => {
    const { prompts } = await h.client.listPrompts();
    for (const name of ['translate_and_summarize', 'summarize_and_translate']) {
      const text = prompts.find((p) => p.name === name)!.arguments!.find((a) => a.name === 'text')!;
      expect(text.description).toContain(`at most ${MAX_TEXT_LENGTH} characters`);
    }
  });
});
