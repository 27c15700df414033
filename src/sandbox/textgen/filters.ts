import { AI_FILTERS } from '../../catalogue/textgen.js';

export interface AiFilterScore {
  groupName: string;
  name: string;
  /** '0' high, '1' medium, '2' low: how much the text corresponds to the category. */
  score: '0' | '1' | '2';
}

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
    return { groupName, name, score: hits === 0 ? '2' : hits === 1 ? '1' : '0' };
  });
}
