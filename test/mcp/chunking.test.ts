import { describe, expect, it } from 'vitest';
import { countedLength, type LanguageCode, type SourceCode } from '../../src/catalogue/translation-rules.js';
import { chunkText } from '../../src/mcp/chunking.js';

const SPAN = /<span\s+(?:translate="no"|class="notranslate")>[\s\S]*?<\/span>/g;

/** ko -> en honours span tags (rule 3 and 5); ko -> es does not. */
const HONOURED = { source: 'ko', target: 'en' } as const;
const at = (limit: number, direction: { source: SourceCode; target: LanguageCode } = HONOURED) => ({
  ...direction,
  limit,
});

function checkInvariants(
  text: string,
  chunks: string[],
  limit: number,
  direction: { source: SourceCode; target: LanguageCode } = HONOURED,
  { spansWhole = true } = {},
) {
  expect(chunks.join('')).toBe(text);
  for (const chunk of chunks) {
    expect(chunk.length).toBeGreaterThan(0);
    expect(countedLength(chunk, direction.source, direction.target)).toBeLessThanOrEqual(limit);
    // No lone surrogate at either end.
    expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(chunk)).toBe(false);
  }
  if (!spansWhole) return;
  // Every span of the text is whole in exactly one chunk.
  const spans = text.match(SPAN) ?? [];
  const whole = chunks.flatMap((c) => c.match(SPAN) ?? []);
  expect(whole).toEqual(spans);
}

describe('chunkText', () => {
  it('keeps a text within the limit whole, and gives nothing for an empty text', () => {
    expect(chunkText('Hello. World.', at(5000))).toEqual(['Hello. World.']);
    expect(chunkText('', at(10))).toEqual([]);
  });

  it('cuts at sentence boundaries, packing as many sentences as fit', () => {
    const text = 'One two three. Four five six! Seven eight nine? Ten eleven twelve.';
    const chunks = chunkText(text, at(30));
    checkInvariants(text, chunks, 30);
    expect(chunks).toEqual(['One two three. Four five six! ', 'Seven eight nine? ', 'Ten eleven twelve.']);
  });

  it('cuts after CJK sentence marks and at line breaks', () => {
    const text = '今日は晴れです。明日は雨です。明後日は曇りです。\nLine two.\nLine three.';
    const chunks = chunkText(text, at(16));
    checkInvariants(text, chunks, 16);
    expect(chunks[0]).toBe('今日は晴れです。明日は雨です。');
    expect(chunks[1]).toBe('明後日は曇りです。\n');
  });

  it('never splits an untranslated span, which does not count toward the limit', () => {
    const span = '<span translate="no">Keep. These. Sentences. Together. Whatever. Happens.</span>';
    const text = `First sentence here. Second one ${span} goes on. Third sentence here. <span class="notranslate">A. B.</span> End.`;
    const chunks = chunkText(text, at(25));
    checkInvariants(text, chunks, 25);
    expect(chunks.some((c) => c.includes(span))).toBe(true);
  });

  it('splits one sentence over the limit at whitespace', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    const text = `${words.join(' ')}. Short.`;
    const chunks = chunkText(text, at(50));
    checkInvariants(text, chunks, 50);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks.slice(0, -2)) expect(chunk).toMatch(/\s$/);
  });

  it('splits a run without whitespace between characters, never inside a surrogate pair', () => {
    const text = '😀'.repeat(25) + 'x'.repeat(10);
    const chunks = chunkText(text, at(10));
    checkInvariants(text, chunks, 10);
    expect(chunks).toHaveLength(4);
    expect(chunks[0]).toBe('😀'.repeat(10));
  });

  it('splits a long article into pieces of at most 5000 counted characters', () => {
    const sentence = (i: number) => `This is sentence number ${i} of a long article about rivers and mountains. `;
    const text = Array.from({ length: 200 }, (_, i) => sentence(i)).join('');
    const chunks = chunkText(text, HONOURED);
    checkInvariants(text, chunks, 5000);
    expect(chunks.length).toBe(Math.ceil(countedLength(text, 'ko', 'en') / 5000));
    for (const chunk of chunks) expect(chunk).toMatch(/^This is sentence number \d+ .*\. $/s);
  });

  it('counts span-tagged text on a direction without span support (rule 5), so every piece passes E3', () => {
    // Issue 9: ko -> es, 4,990 characters plus a 100-character span is 5,118 counted characters.
    const span = `<span translate="no">${'n'.repeat(100 - 28)}</span>`;
    const text = `${'가나다라마바사아자. '.repeat(453)}가나다라마바사${span}`;
    expect([...text].length).toBe(4990 + 100);
    const chunks = chunkText(text, { source: 'ko', target: 'es' });
    checkInvariants(text, chunks, 5000, { source: 'ko', target: 'es' });
    expect(chunks.length).toBe(2);
    // The same text ko -> en: the span is free, one call.
    expect(chunkText(text, HONOURED)).toEqual([text]);
  });

  it('with source auto, counts spans when no source the text may have honours them for the target', () => {
    const text = `${'Word. '.repeat(830)}<span class="notranslate">${'z'.repeat(200)}</span>`;
    expect(countedLength(text, 'auto', 'es')).toBeGreaterThan(5000);
    const chunks = chunkText(text, { source: 'auto', target: 'es' });
    checkInvariants(text, chunks, 5000, { source: 'auto', target: 'es' });
    expect(chunks.length).toBe(2);
    expect(chunkText(text, { source: 'auto', target: 'en' })).toEqual([text]);
  });

  it('splits a long unhonoured span when it alone is over the limit', () => {
    const text = `Intro. <span translate="no">${'word '.repeat(40)}</span> Outro.`;
    const chunks = chunkText(text, at(50, { source: 'ko', target: 'es' }));
    checkInvariants(text, chunks, 50, { source: 'ko', target: 'es' }, { spansWhole: false });
    expect(chunks.length).toBeGreaterThan(4);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => chunkText('text', at(0))).toThrow(RangeError);
    expect(() => chunkText('text', at(1.5))).toThrow(RangeError);
  });
});
