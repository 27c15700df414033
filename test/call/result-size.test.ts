import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortenedNote } from '../../src/call/result-size.js';
import { connect, type Harness } from '../mcp/harness.js';
import { costRatio } from '../helpers/cost.js';

describe('the note of a shortened result', () => {
  it('says the limit, what was left out and how to get the rest', () => {
    expect(shortenedNote(8000, 'productPage.content shows 3 of 12 items', 'Ask for less to get the rest.')).toBe(
      'Shortened to fit SVC_MAX_RESULT_BYTES (8000 bytes, about 2000 tokens): productPage.content shows 3 of 12 items. Ask for less to get the rest.',
    );
  });

  describe('on a list answer larger than the result limit', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await connect({ env: { SVC_MAX_RESULT_BYTES: '4096' } });
    });
    afterAll(async () => {
      await h?.close();
    });

    it('ends the result with the note, naming the list and the paging of the operation', async () => {
      const result = await h.client.callTool({ name: 'apigateway_list_products', arguments: {} });
      expect(result.isError).toBeFalsy();
      const content = result.content as { type: string; text: string }[];
      expect(content).toHaveLength(2);
      const shown = Number(/shows (\d+) of 12 items/.exec(content[1]!.text)?.[1]);
      expect((result.structuredContent as { productPage: { content: unknown[] } }).productPage.content).toHaveLength(
        shown,
      );
      // Every item left out, and only those: offsets shown..11 of the sandbox's twelve.
      expect(content[1]!.text).toBe(
        `Shortened to fit SVC_MAX_RESULT_BYTES (4096 bytes, about 1024 tokens): productPage.content shows ${shown} of 12 items. ` +
          `To get the rest, ask with offset ${shown} and limit ${12 - shown} (offsets ${shown}-11), or, as fewer may fit ` +
          `in one result, with limit ${shown} at offsets ${shown}, ${2 * shown}, … through 11.`,
      );
      expect(Buffer.byteLength(JSON.stringify(result), 'utf8')).toBeLessThanOrEqual(4096);
    });
  });
});

/** shortenToFit after measure, as render does. */
async function fit(value: unknown, maxBytes: number) {
  const { measure, shortenToFit } = await import('../../src/call/result-size.js');
  return shortenToFit(value, await measure(value, () => Promise.resolve()), maxBytes);
}

describe('shortenToFit', () => {
  it('cuts the largest list from its end, just enough, and says so', async () => {
    // {"a":[1,2,3],"b":["xxxxxxxxxx","yyyyyyyyyy"]} is 45 bytes; b is the largest list (27 bytes).
    const value = { a: [1, 2, 3], b: ['xxxxxxxxxx', 'yyyyyyyyyy'] };
    expect(await fit(value, 40)).toEqual({
      value: { a: [1, 2, 3], b: ['xxxxxxxxxx'] },
      shortened: [{ path: 'b', shown: 1, total: 2 }],
    });
    // 16 bytes: b empties ({"a":[1,2,3],"b":[]} is 20) and a loses its last two items.
    expect(await fit(value, 16)).toEqual({
      value: { a: [1], b: [] },
      shortened: [
        { path: 'b', shown: 0, total: 2 },
        { path: 'a', shown: 1, total: 3 },
      ],
    });
    expect(value.b).toHaveLength(2); // the input is not changed
    expect(await fit({ a: 'no list here' }, 5)).toBeUndefined();
  });

  it('stays near linear on an answer of many small lists (a hostile upstream): 3000 lists', async () => {
    const answer = Object.fromEntries(
      Array.from({ length: 3000 }, (_, i) => [`k${i}`, Array.from({ length: 10 }, (_, j) => j)]),
    );
    expect(Buffer.byteLength(JSON.stringify(answer))).toBeGreaterThan(80_000);
    const fitted = await fit(answer, 45_000);
    expect(Buffer.byteLength(JSON.stringify(fitted!.value))).toBeLessThanOrEqual(45_000);
    // Against writing the answer's JSON once: about a dozen times that here. The old loop re-measured the whole answer
    // for each list it cut: seconds, thousands of times.
    const shorten = () => fit(answer, 45_000);
    const writeOnce = () => JSON.stringify(answer);
    expect(await costRatio(shorten, writeOnce)).toBeLessThan(400);
  });
});
