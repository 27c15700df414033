/**
 * The largest text the prompts and the workflow tool accept is split in time and memory linear in its length (issue
 * 19): sentence splitting used to keep every segment of the segmenter, each with a copy of the whole text, and count
 * each chunk again at every sentence; 50,000 characters of short Korean sentences took 5 s and 1.7 GB, 450 KB ran the
 * process out of memory.
 *
 * Time is compared with eight runs on an eighth of the text (growthFactor), so that a loaded machine slows both alike.
 * Memory is the most the heap held while the work ran, by V8's account after each collection it made meanwhile (what
 * was still reachable then, not garbage), over what it held before: the fixed code holds a few MiB, the quadratic code
 * held gigabytes. Not the process's peak resident size, a high-water mark that earlier tests in the same process may
 * have set already, and that garbage moves too.
 */
import { GCProfiler } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkText, MAX_TEXT_LENGTH } from '../../src/mcp/chunking.js';
import { costRatio, growthFactor, LINEAR } from '../helpers/cost.js';
import { connect, type Harness } from './harness.js';

const PEAK_GROWTH_BOUND_MIB = 150;

/** Short Korean sentences, one per line: the most sentences per character (the red team's input). */
const sentences = (length: number) => '가.\n'.repeat(Math.ceil(length / 3)).slice(0, length);
const LARGEST = sentences(MAX_TEXT_LENGTH);
/** 16,667 sentences of three characters (the last of two); a piece of at most 5000 characters holds 1,666 of them. */
const PIECES = Math.ceil(Math.ceil(MAX_TEXT_LENGTH / 3) / Math.floor(5000 / 3));

/** What `work` gives, and the most the heap held meanwhile (after any collection) over what it held before. */
async function measure<T>(work: () => T | Promise<T>): Promise<{ value: T; peakGrowthMiB: number }> {
  const before = process.memoryUsage().heapUsed;
  const profiler = new GCProfiler();
  profiler.start();
  const value = await work();
  const held = profiler.stop()?.statistics.map((gc) => gc.afterGC.heapStatistics.usedHeapSize) ?? [];
  return { value, peakGrowthMiB: (Math.max(before, ...held) - before) / 1024 / 1024 };
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
  it(`is chunked in linear time and under ${PEAK_GROWTH_BOUND_MIB} MiB`, async () => {
    const chunk = (text: string) => chunkText(text, { source: 'ko', target: 'en' });
    const { value: chunks, peakGrowthMiB } = await measure(() => chunk(LARGEST));
    expect(chunks.join('')).toBe(LARGEST);
    expect(chunks.length).toBe(PIECES);
    expect(peakGrowthMiB).toBeLessThan(PEAK_GROWTH_BOUND_MIB);
    expect(await growthFactor(sentences, chunk, MAX_TEXT_LENGTH)).toBeLessThan(LINEAR);
  });

  it.each(['translate_and_summarize', 'summarize_and_translate'])(
    `renders prompt %s in linear time and under ${PEAK_GROWTH_BOUND_MIB} MiB`,
    async (name) => {
      const { value: text, peakGrowthMiB } = await measure(() => promptText(name, LARGEST));
      expect(text).toContain(`--- piece ${PIECES} of ${PIECES} ---`);
      expect(peakGrowthMiB).toBeLessThan(PEAK_GROWTH_BOUND_MIB);
      const render = (input: string) => promptText(name, input);
      expect(await growthFactor(sentences, render, MAX_TEXT_LENGTH, 3)).toBeLessThan(LINEAR);
    },
  );

  it(`runs through the workflow tool in linear time and under ${PEAK_GROWTH_BOUND_MIB} MiB (sandbox upstream)`, async () => {
    const run = (text: string) =>
      h.client.callTool({ name: 'translate_and_summarize', arguments: { text, target: 'en', source: 'ko' } });
    const { value: result, peakGrowthMiB } = await measure(() => run(LARGEST));
    expect(result.isError, JSON.stringify(result.content).slice(0, 500)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ chunks: PIECES });
    expect(peakGrowthMiB).toBeLessThan(PEAK_GROWTH_BOUND_MIB);
    // Eleven translations and a completion per run: one measured run of each side (0.3-0.9 s) is enough.
    expect(await growthFactor(sentences, run, MAX_TEXT_LENGTH, 1)).toBeLessThan(LINEAR);
  }, 60_000);
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
    const refuse = (text: string) =>
      promptText('translate_and_summarize', text).then(
        () => undefined,
        (error: Error) => error,
      );
    const refused = await refuse(huge);
    expect(refused?.message).toContain(`text must be at most ${MAX_TEXT_LENGTH} characters (got 450000)`);
    // Its cost linear in the text: no dearer than refusing nine texts one character too long, each nine times shorter.
    // (Against one such refusal the bound was 4, while counting 450,000 code points and carrying them is itself nine
    // times the work: a loaded machine measured 4.2.)
    const justOver = sentences(MAX_TEXT_LENGTH + 1);
    expect(
      await costRatio(
        () => refuse(huge),
        async () => {
          for (let i = 0; i < 9; i += 1) await refuse(justOver);
        },
      ),
    ).toBeLessThan(LINEAR);
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
