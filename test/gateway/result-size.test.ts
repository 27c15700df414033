import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortenedNote } from '../../src/gateway/result-size.js';
import { connect, type Harness } from '../mcp/harness.js';

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
      expect(content[1]!.text).toMatch(
        /^Shortened to fit SVC_MAX_RESULT_BYTES \(4096 bytes, about 1024 tokens\): productPage\.content shows \d+ of 12 items\. To get the rest, ask for the following items with offset and limit\.$/,
      );
      expect(Buffer.byteLength(JSON.stringify(result), 'utf8')).toBeLessThanOrEqual(4096);
    });
  });
});
