/**
 * Issue 28, point 4: redacting, interpreting (parse, check against the output schema, off-spec values set aside) and
 * rendering (measure, shorten) an answer of N bytes costs time linear in N. A ratio against eight runs on an eighth of
 * the answer (test/helpers/cost.ts); absolute figures are in `npm run bench` (bench/answers.mjs). Issue 32, point 7:
 * the memory an answer holds is a small multiple of its size, however tiny its items.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { itemsAResultCanShow, render } from '../../src/call/render.js';
import { listProducts } from '../../src/catalogue/apigateway.js';
import { interpretResponse } from '../../src/upstream/response.js';
import { Redactor } from '../../src/util/redact.js';
import { compiled } from '../helpers/attempts.js';
import { growthFactor, LINEAR } from '../helpers/cost.js';
import { SECRETS } from '../helpers/upstream.js';

const MiB = 1024 * 1024;
const operation = compiled(listProducts);
const redactor = new Redactor(SECRETS);
const pause = () => Promise.resolve();

/** An E7 answer of tiny products, about `bytes` long; every 50th with a numeric productId (off the spec). */
function answer(bytes: number): string {
  const items: string[] = [];
  for (let i = 0, size = 0; size < bytes; i += 1) {
    const item = i % 50 === 7 ? `{"productId":${i},"isPublished":true}` : `{"productId":"p-${i}","isPublished":true}`;
    items.push(item);
    size += item.length + 1;
  }
  return `{"initialCount":${items.length},"productPage":{"total":${items.length},"content":[${items.join(',')}]}}`;
}

const MAX_RESULT = 100_000;

/** What a call does with an answer once it has arrived, up to its interpreted answer. */
async function interpret(text: string) {
  const clean = await redactor.redactInWindows(text, pause);
  const read = await interpretResponse(
    operation,
    { status: 200, contentType: 'application/json', text: clean },
    'json',
    pause,
    { keepItems: itemsAResultCanShow(MAX_RESULT) },
  );
  if (read.kind !== 'json') throw new Error('expected JSON');
  return read;
}

/** ... and on to its result. */
async function arrive(text: string) {
  const read = await interpret(text);
  return render(
    { json: read.value, paging: (cut) => operation.paging?.({}, cut) ?? '', counted: read.counted },
    MAX_RESULT,
    pause,
  );
}

/** A garbage collection on demand, for a measure of what is held (the flag works on a running process too). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const heldBytes = () => {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

/** E7's list of 4 MiB of one tiny item: `{}` (every member of a product is optional), a number (off the spec)... */
function tinyItems(item: string): string {
  const count = Math.floor((4 * MiB) / (item.length + 1));
  return `{"initialCount":${count},"productPage":{"total":${count},"content":[${`${item},`.repeat(count - 1)}${item}]}}`;
}

describe('an answer of tiny items, from arrival to result', () => {
  it('is a shortened list with its off-spec items in place', async () => {
    const result = await arrive(answer(MiB));
    expect(result.content[1]!.text).toMatch(/productPage\.content shows \d+ of \d+ items/);
    const content = (result.structuredContent as { productPage: { content: unknown[] } }).productPage.content;
    expect(content[7]).toEqual({ isPublished: true, offSpec: { productId: 7 } });
  });

  it('costs time linear in its size', async () => {
    expect(await growthFactor(answer, arrive, 2 * MiB, 3)).toBeLessThan(LINEAR);
  }, 120_000);

  // Before, 4 MiB of `{}` held some 90 MiB once read (1.4 million objects), of numbers 130 MiB (each wrapped in an
  // object of its own with its offSpec), though a result shows a few thousand of them.
  it.each([['{}'], ['7'], ['{"n":1}'], ['"x"']])(
    'holds less than three times its size once read, made of %s',
    async (item) => {
      const gc = collector();
      const text = tinyItems(item);
      const count = Math.floor((4 * MiB) / (item.length + 1));
      await interpret(text); // compilation, the redactor's first use
      // Collected after a turn of the event loop, twice: what a window's pause or a finished stream still held for a
      // moment is not what the answer holds (a CI run once measured 33 MiB that a run alone never shows).
      const settled = async () => {
        await new Promise((resolve) => setImmediate(resolve));
        gc();
        gc();
        return heldBytes();
      };
      const before = await settled();
      const read = await interpret(text);
      const held = (await settled()) - before;
      expect(held).toBeLessThan(3 * text.length);
      expect(read.counted).toEqual([{ keys: ['productPage', 'content'], total: count }]);
      const result = await render(
        { json: read.value, paging: (cut) => operation.paging?.({}, cut) ?? '', counted: read.counted },
        MAX_RESULT,
        pause,
      );
      expect(result.content[1]!.text).toMatch(new RegExp(`productPage\\.content shows \\d+ of ${count} items`));
    },
    60_000,
  );
});
