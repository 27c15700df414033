import { AI_FILTERS, AI_FILTER_SCORES, type AiFilterScore as Score } from '../../catalogue/textgen.js';

export interface AiFilterScore {
  groupName: string;
  name: string;
  /** How much the text corresponds to the category (the catalogue's AI_FILTER_SCORES: '0' high ... '2' low). */
  score: Score;
}

const score = (degree: (typeof AI_FILTER_SCORES)[number]['degree']): Score =>
  AI_FILTER_SCORES.find((s) => s.degree === degree)!.score;

/** A few marker words per category (lower case; matched as substrings). Deliberately mild: it is a simulator. */
const MARKERS: Record<string, readonly string[]> = {
  'curse/discrimination': ['hate', 'inferior', 'racist', '혐오', '차별'],
  'curse/insult': ['idiot', 'stupid', 'damn', 'fool', '바보', '멍청'],
  'unsafeContents/sexualHarassment': ['obscene', 'lewd', 'sexy', '음란', '성희롱'],
};

/** Scores the three categories: no marker word -> '2' (low), one -> '1' (medium), two or more -> '0' (high). */
export function scoreAiFilters(text: string): AiFilterScore[] {
  const lower = text.toLowerCase();
  return AI_FILTERS.map(({ groupName, name }) => {
    const hits = (MARKERS[`${groupName}/${name}`] ?? []).reduce(
      (count, marker) => count + lower.split(marker).length - 1,
      0,
    );
    return { groupName, name, score: score(hits === 0 ? 'low' : hits === 1 ? 'medium' : 'high') };
  });
}
