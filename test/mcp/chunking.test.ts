import { describe, expect, it } from 'vitest';
import { countedLength } from '../../src/catalogue/languages.js';
import { chunkText } from '../../src/mcp/chunking.js';

const SPAN = /<span\s+(?:translate="no"|class="notranslate")>[\s\S]*?<\/span>/g;

function checkInvariants(text: string, chunks: string[], limit: number) {
  expect(chunks.join('')).toBe(text);
  for (const chunk of chunks) {
    expect(chunk.length).toBeGreaterThan(0);
    expect(countedLength(chunk)).toBeLessThanOrEqual(limit);
    // No lone surrogate at either end.
    expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(chunk)).toBe(false);
  }
  // Every span of the text is whole in exactly one chunk.
  const spans = text.match(SPAN) ?? [];
  const whole = chunks.flatMap((c) => c.match(SPAN) ?? []);
  expect(whole).toEqual(spans);
}

describe('chunkText', () => {
  it('keeps a text within the limit whole, and gives nothing for an empty text', () => {
    expect(chunkText('Hello. World.', 5000)).toEqual(['Hello. World.']);
    expect(chunkText('', 10)).toEqual([]);
  });

  it('cuts at sentence boundaries, packing as many sentences as fit', () => {
    const text = 'One two three. Four five six! Seven eight nine? Ten eleven twelve.';
    const chunks = chunkText(text, 30);
    checkInvariants(text, chunks, 30);
    expect(chunks).toEqual(['One two three. Four five six! ', 'Seven eight nine? ', 'Ten eleven twelve.']);
  });

  it('cuts after CJK sentence marks and at line breaks', () => {
    const text = '今日は晴れです。明日は雨です。明後日は曇りです。\nLine two.\nLine three.';
    const chunks = chunkText(text, 16);
    checkInvariants(text, chunks, 16);
    expect(chunks[0]).toBe('今日は晴れです。明日は雨です。');
    expect(chunks[1]).toBe('明後日は曇りです。\n');
  });

  it('never splits an untranslated span, which does not count toward the limit', () => {
    const span = '<span translate="no">Keep. These. Sentences. Together. Whatever. Happens.</span>';
    const text = `First sentence here. Second one ${span} goes on. Third sentence here. <span class="notranslate">A. B.</span> End.`;
    const chunks = chunkText(text, 25);
    checkInvariants(text, chunks, 25);
    expect(chunks.some((c) => c.includes(span))).toBe(true);
  });

  it('splits one sentence over the limit at whitespace', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    const text = `${words.join(' ')}. Short.`;
    const chunks = chunkText(text, 50);
    checkInvariants(text, chunks, 50);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks.slice(0, -2)) expect(chunk).toMatch(/\s$/);
  });

  it('splits a run without whitespace between characters, never inside a surrogate pair', () => {
    const text = '😀'.repeat(25) + 'x'.repeat(10);
    const chunks = chunkText(text, 10);
    checkInvariants(text, chunks, 10);
    expect(chunks).toHaveLength(4);
    expect(chunks[0]).toBe('😀'.repeat(10));
  });

  it('splits a long article into pieces of at most 5000 counted characters', () => {
    const sentence = (i: number) => `This is sentence number ${i} of a long article about rivers and mountains. `;
    const text = Array.from({ length: 200 }, (_, i) => sentence(i)).join('');
    const chunks = chunkText(text);
    checkInvariants(text, chunks, 5000);
    expect(chunks.length).toBe(Math.ceil(countedLength(text) / 5000));
    for (const chunk of chunks) expect(chunk).toMatch(/^This is sentence number \d+ .*\. $/s);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => chunkText('text', 0)).toThrow(RangeError);
    expect(() => chunkText('text', 1.5)).toThrow(RangeError);
  });
});
