/**
 * Issue 33, point 8, through the built server against a recording upstream: E5's JSONP under another callback name
 * than asked is an error that names it; numbers a double cannot hold come back exact; the upstream's own `offSpec`
 * keeps its value beside the reader's note.
 */
import { describe, expect, it } from 'vitest';
import { recordedStdio } from '../../helpers/recorded-stdio.js';
import { textOf } from '../../helpers/spawn-server.js';

const recorded = recordedStdio();

const OK = '{"status":{"code":0,"name":"ok","message":"done"},"results":[]}';
const javascript = (body: string) => ({ headers: { 'content-type': 'application/javascript' }, body });

describe('E5 JSONP', () => {
  it('under the callback asked for is the answer, as it came', async () => {
    recorded.upstream.reply(javascript(`mine(${OK});`));
    const result = await recorded.server.call('maps_reverse_geocode', { coords: '127.1054,37.3595', callback: 'mine' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toBe(`mine(${OK});`);
  });

  it('under another callback is an error that says which came back', async () => {
    recorded.upstream.reply(javascript(`evil_cb(${OK});`));
    const result = await recorded.server.call('maps_reverse_geocode', { coords: '127.1054,37.3595', callback: 'mine' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('[malformed_response]');
    expect(textOf(result)).toContain('wrapped in evil_cb(...) where mine(...) was asked for');
  });
});

describe('numbers and notes', () => {
  it('keeps 9223372036854775807.0 and 1e400 exact, and the upstream offSpec beside the note', async () => {
    recorded.upstream.reply({
      headers: { 'content-type': 'application/json' },
      body:
        '{"offSpec":{"theirs":true},"initialCount":9223372036854775807.0,"productPage":{"total":1,' +
        '"content":[{"productId":"p-1","rating":1e400}]},"score":1e400}',
    });
    const result = await recorded.server.call('apigateway_list_products', {});
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toEqual({
      initialCount: '9223372036854775807',
      productPage: { total: 1, content: [{ productId: 'p-1', rating: '1e400' }] },
      score: '1e400',
      offSpec: { offSpec: { theirs: true } },
    });
  });
});
