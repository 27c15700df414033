/**
 * The translation rules (E3), each expected value written out from the spec: the span grammar of rule 5, what
 * counts toward the 5000 characters, and every check of a request.
 */
import { describe, expect, it } from 'vitest';
import {
  countedLength,
  directionBasis,
  directionCounts,
  spansHonoured,
  translationIssues,
  untranslatedSpans,
} from '../../src/catalogue/translation-rules.js';
import { growthFactor, LINEAR } from '../helpers/cost.js';

const spansOf = (text: string) => untranslatedSpans(text).map(([s, e]) => text.slice(s, e));

describe('the span grammar of rule 5', () => {
  it('knows both attribute forms, in any case and any quoting, among other attributes', () => {
    expect(spansOf('a <span translate="no">x</span> b <span class="notranslate">y</span>')).toEqual([
      '<span translate="no">x</span>',
      '<span class="notranslate">y</span>',
    ]);
    expect(spansOf("<SPAN TRANSLATE='NO'>x</SPAN>")).toEqual(["<SPAN TRANSLATE='NO'>x</SPAN>"]);
    expect(spansOf('<span translate=no>x</span>')).toEqual(['<span translate=no>x</span>']);
    expect(spansOf('<span id="k" class="brand NoTranslate">x</span>')).toEqual([
      '<span id="k" class="brand NoTranslate">x</span>',
    ]);
    expect(spansOf('<span translate = "no" >x</span>')).toEqual(['<span translate = "no" >x</span>']);
  });

  it('closes at the matching </span> when spans are nested', () => {
    const text = 'A <span translate="no">keep <span class="b">bold</span> and <span>more</span> too</span> B';
    expect(spansOf(text)).toEqual([
      '<span translate="no">keep <span class="b">bold</span> and <span>more</span> too</span>',
    ]);
    // An untranslated span inside another is part of it.
    expect(spansOf('<span class="notranslate">1 <span translate="no">2</span> 3</span>')).toEqual([
      '<span class="notranslate">1 <span translate="no">2</span> 3</span>',
    ]);
  });

  it('ignores other spans, unclosed spans and other attribute values', () => {
    expect(
      spansOf('<span class="x">a</span> <span translate="yes">b</span> <span class="notranslated">c</span>'),
    ).toEqual([]);
    expect(spansOf('<span translate="no">never closed')).toEqual([]);
    expect(spansOf('<spanner translate="no">x</spanner>')).toEqual([]);
    expect(spansOf('<span translate="no"/>x</span>')).toEqual([]);
  });

  it('reads a text in time linear in its length, even when many tags never end', async () => {
    // Each `<span` with no `>` after it used to be read on to the end of the text: 120,000 characters took 9 s.
    const textOf = (length: number) => `<span translate="no">kept</span> ${'<span '.repeat(Math.ceil(length / 6))}`;
    const text = textOf(120_000);
    expect(untranslatedSpans(text)).toEqual([[0, 32]]);
    expect(countedLength(text, 'ko', 'en')).toBe(text.length - 32);
    const read = (input: string) => [untranslatedSpans(input), countedLength(input, 'ko', 'en')];
    expect(await growthFactor(textOf, read, 120_000)).toBeLessThan(LINEAR);
  });
});

describe('counted length', () => {
  it('counts code points, spans and their tags excluded on directions that honour them', () => {
    const text = '😀 hi <span translate="no">not counted</span>!';
    expect(countedLength(text, 'ko', 'en')).toBe([...'😀 hi !'].length);
    // ko -> es: no span support (rule 5 = rule 3's languages), every character counts.
    expect(countedLength(text, 'ko', 'es')).toBe([...text].length);
  });

  it('with auto, spans are free when some source the text may have honours them for the target', () => {
    expect(spansHonoured('auto', 'en')).toBe(true);
    expect(spansHonoured('auto', 'vi')).toBe(true); // en -> vi is a rule 3 pair
    for (const target of ['es', 'ru', 'de', 'it'] as const) expect(spansHonoured('auto', target), target).toBe(false);
  });
});

describe('directions', () => {
  it('gives each direction its basis in the spec: the table, its reverse (pairs work both ways), or nothing', () => {
    expect(directionBasis('ko', 'it')).toBe('documented');
    expect(directionBasis('ja', 'ko')).toBe('documented in reverse');
    expect(directionBasis('fr', 'ko')).toBe('documented in reverse');
    expect(directionBasis('zh-TW', 'ja')).toBe('documented in reverse');
    // Issue 18: reverses of table directions are documented, from any source.
    expect(directionBasis('vi', 'ko')).toBe('documented in reverse');
    expect(directionBasis('zh-TW', 'zh-CN')).toBe('documented in reverse');
    expect(directionBasis('vi', 'th')).toBe('not documented');
    expect(directionBasis('it', 'en')).toBe('not documented');
    expect(directionBasis('ja', 'es')).toBe('ruled out');
    expect(directionBasis('en', 'it')).toBe('ruled out');
    // A direction needs a source different from the target, whatever the source.
    expect(directionBasis('ko', 'ko')).toBe('ruled out');
    expect(directionBasis('vi', 'vi')).toBe('ruled out');
    expect(directionBasis('it', 'it')).toBe('ruled out');
  });

  it('counts 30 documented directions, 28 reverses and 85 from sources the spec shows no directions for', () => {
    // 12 + 11 + 6 + 1 listed; 29 pairs both ways make 58; 9 other sources x 12 targets, less their 23 reverses.
    expect(directionCounts()).toEqual({
      total: 143,
      documented: 30,
      'documented in reverse': 28,
      'not documented': 85,
    });
  });
});

describe('translationIssues', () => {
  const fields = (req: Parameters<typeof translationIssues>[0]) =>
    translationIssues(req).map((i) => `${i.rule}:${i.field}`);

  it('refuses what the spec rules out, and nothing more', () => {
    expect(fields({ source: 'ja', target: 'es', text: 'x' })).toEqual(['direction:target']);
    expect(fields({ source: 'vi', target: 'vi', text: 'x' })).toEqual(['direction:target']);
    expect(translationIssues({ source: 'vi', target: 'vi' })[0]?.message).toBe(
      'vi -> vi is not a supported direction; the target must differ from the source',
    );
    expect(fields({ source: 'vi', target: 'ko', text: 'x' })).toEqual([]);
    expect(fields({ source: 'vi', target: 'th', text: 'x' })).toEqual([]);
    expect(fields({ source: 'auto', target: 'it', text: 'x' })).toEqual([]);
  });

  it('checks the length with the direction’s own count', () => {
    const text = `${'a'.repeat(4990)}<span translate="no">${'b'.repeat(50)}</span>`;
    expect(fields({ source: 'ko', target: 'en', text })).toEqual([]);
    expect(fields({ source: 'ko', target: 'es', text })).toEqual(['length:text']);
    expect(translationIssues({ source: 'ko', target: 'es', text })[0]?.message).toBe(
      'must be at most 5000 characters (got 5068)',
    );
    expect(fields({ source: 'auto', target: 'es', text })).toEqual(['length:text']);
  });

  it('refuses glossary and honorific where rules 3 and 4 rule them out, with auto only when no source allows them', () => {
    expect(fields({ source: 'en', target: 'es', glossaryKey: 'g' })).toEqual(['glossary:glossaryKey']);
    expect(fields({ source: 'en', target: 'es', glossaryKey: 'g', replaceInfo: 'r' })).toEqual([
      'glossary:replaceInfo',
    ]);
    expect(fields({ source: 'auto', target: 'es', glossaryKey: 'g' })).toEqual(['glossary:glossaryKey']);
    expect(fields({ source: 'auto', target: 'ko', glossaryKey: 'g' })).toEqual([]);
    expect(fields({ source: 'ko', target: 'en', honorific: true })).toEqual(['honorific:honorific']);
    expect(fields({ source: 'auto', target: 'ja', honorific: true })).toEqual([]);
    expect(fields({ source: 'auto', target: 'en', honorific: true })).toEqual(['honorific:honorific']);
  });

  it('words its refusals without the spec’s rule numbers, naming where the feature is supported', () => {
    expect(translationIssues({ source: 'en', target: 'es', glossaryKey: 'g' })[0]?.message).toBe(
      'glossaryKey and replaceInfo are not supported for en -> es; they are for ko with en, ja, zh-CN, zh-TW, fr; en ' +
        'with ja, zh-CN, zh-TW, vi, th, id, fr; ja with zh-CN, zh-TW (both ways)',
    );
    expect(translationIssues({ source: 'ko', target: 'en', honorific: true })[0]?.message).toBe(
      'honorific is not supported for ko -> en; it is for en, ja, zh-CN, zh-TW -> ko; ko, en, zh-CN, zh-TW -> ja',
    );
  });
});
