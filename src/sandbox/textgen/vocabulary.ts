/**
 * The generator's vocabulary: a tiny sentence grammar per language. Each slot lists phrases from most to least
 * likely; `{topic}` is replaced by a word taken from the prompt (slots holding it are skipped when the prompt
 * gives none).
 */
export interface Grammar {
  connectors: readonly string[];
  subjects: readonly string[];
  verbs: readonly string[];
  objects: readonly string[];
  tails: readonly string[];
}

export const ENGLISH: Grammar = {
  connectors: ['In addition,', 'As a result,', 'For example,', 'However,', 'In practice,', 'Over time,'],
  subjects: [
    'the team',
    'this approach',
    'the {topic}',
    'our service',
    'a clear plan',
    'the new feature',
    'each user',
    'the system',
  ],
  verbs: ['improves', 'supports', 'simplifies', 'connects', 'explains', 'keeps', 'changes', 'needs'],
  objects: [
    'the daily work',
    'every request',
    'the whole process',
    'the {topic}',
    'clear results',
    'the data pipeline',
    'our customers',
    'a simple answer',
  ],
  tails: [
    'every day',
    'in a few steps',
    'with less effort',
    'for the whole team',
    'more quickly',
    'without extra cost',
    'across regions',
  ],
};

export const KOREAN: Grammar = {
  connectors: ['또한', '그래서', '예를 들어', '하지만', '실제로', '결국'],
  subjects: ['이 서비스', '우리 팀', '{topic}', '새로운 기능', '이 방법', '각 사용자', '전체 시스템'],
  verbs: ['처리합니다', '개선합니다', '지원합니다', '연결합니다', '설명합니다', '관리합니다', '바꿉니다'],
  objects: ['업무 과정', '데이터', '{topic}', '고객의 요청', '결과', '전체 흐름', '작은 문제'],
  tails: ['더 빠르게', '쉽게', '안정적으로', '매일', '효율적으로', '꾸준히'],
};

const ENGLISH_STOPWORDS = new Set([
  'about',
  'write',
  'tell',
  'please',
  'what',
  'which',
  'there',
  'their',
  'these',
  'those',
  'would',
  'could',
  'should',
  'with',
  'from',
  'that',
  'this',
  'have',
  'into',
  'your',
  'make',
  'some',
]);

/** A topic word for the grammar: the longest non-stopword of 4+ letters (English), or the longest Hangul word
 * that does not end like a verb, one trailing particle removed. */
export function topicOf(prompt: string, korean: boolean): string | undefined {
  if (korean) {
    let longest: string | undefined;
    for (const word of prompt.match(/\p{Script=Hangul}+/gu) ?? []) {
      if (/(?:요|다|까|세요|니다)$/u.test(word)) continue; // verb endings
      const stem = word.length >= 3 ? word.replace(/(?:에서|으로|은|는|이|가|을|를|에|의|로|와|과|도)$/u, '') : word;
      if (stem.length >= 2 && (!longest || stem.length > longest.length)) longest = stem;
    }
    return longest;
  }
  let best: string | undefined;
  for (const word of prompt.toLowerCase().match(/\p{L}{4,}/gu) ?? []) {
    if (ENGLISH_STOPWORDS.has(word)) continue;
    if (!best || word.length > best.length) best = word;
  }
  return best;
}

/** Korean particles that depend on whether the last syllable has a final consonant (batchim). */
export function withParticle(word: string, kind: 'topic' | 'object'): string {
  const last = word.codePointAt(word.length - 1) ?? 0;
  const hasBatchim = last >= 0xac00 && last <= 0xd7a3 && (last - 0xac00) % 28 !== 0;
  if (kind === 'topic') return word + (hasBatchim ? '은' : '는');
  return word + (hasBatchim ? '을' : '를');
}
