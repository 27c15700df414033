/**
 * Issue 33 (items 9 and 11), through the built server over stdio against a recording upstream: an answer that alone
 * would mislead the next step comes with a note after it, and an answer that would not comes alone.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { recordedStdio } from '../../helpers/recorded-stdio.js';

const recorded = recordedStdio();

const texts = (result: CallToolResult) => (result.content as { text: string }[]).map((c) => c.text);
const NO_RESULTS = { status: { code: 3, name: 'no results', message: 'no results' }, results: [] };

describe('E5 status 3 (spec rule 1)', () => {
  it.each(['roadaddr', 'addr', 'roadaddr,addr'])(
    'to orders %s: the note suggests legalcode/admcode',
    async (orders) => {
      recorded.upstream.reply({ body: NO_RESULTS });
      const result = await recorded.server.call('maps_reverse_geocode', { coords: '129.1587,35.1586', orders });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(NO_RESULTS);
      const [answer, note] = texts(result);
      expect(JSON.parse(answer!)).toEqual(NO_RESULTS);
      expect(note).toMatch(/ask again with orders legalcode,admcode/);
    },
  );

  it.each([undefined, 'admcode', 'roadaddr,legalcode'])('to orders %s (a dong asked for): no note', async (orders) => {
    recorded.upstream.reply({ body: NO_RESULTS });
    const args = { coords: '129.5,35.0', ...(orders ? { orders } : {}) };
    expect(texts(await recorded.server.call('maps_reverse_geocode', args))).toHaveLength(1);
  });
});

describe('E3 span tags on a direction that does not honour them (spec rule 5)', () => {
  const tagged = '<span translate="no">SBC</span> 고마워.';
  const answer = (source: string, target: string, translatedText: string) => ({
    message: {
      '@type': 'response',
      '@service': 'x',
      result: { srcLangType: source, tarLangType: target, translatedText },
    },
  });

  it('ko -> es, and auto detected as ko: a note after the unchanged answer', async () => {
    for (const source of ['ko', 'auto']) {
      const body = answer('ko', 'es', '<span translate="no">SBC</span> Gracias.');
      recorded.upstream.reply({ body });
      const result = await recorded.server.call('translation_translate_text', { source, target: 'es', text: tagged });
      expect(result.structuredContent, source).toEqual(body);
      const [, note] = texts(result);
      expect(note, source).toMatch(/^Span tags are not honoured for ko -> es/);
    }
  });

  it('ko -> en (honoured) and an untagged text: no note', async () => {
    recorded.upstream.reply({ body: answer('ko', 'en', 'SBC Thank you.') });
    expect(
      texts(await recorded.server.call('translation_translate_text', { source: 'ko', target: 'en', text: tagged })),
    ).toHaveLength(1);
    recorded.upstream.reply({ body: answer('ko', 'es', 'Gracias.') });
    expect(
      texts(await recorded.server.call('translation_translate_text', { source: 'ko', target: 'es', text: '고마워.' })),
    ).toHaveLength(1);
  });
});
