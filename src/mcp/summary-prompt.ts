import { TEXTGEN_MODEL } from '../catalogue/textgen.js';

/**
 * How a summary is asked of the text-generation model (E12), shared by the workflow tool and the prompts so that
 * both run the same flow. Pure.
 */

export const SUMMARY_LENGTHS = ['short', 'medium', 'long'] as const;
export type SummaryLength = (typeof SUMMARY_LENGTHS)[number];

const PRESETS: Record<SummaryLength, { extent: string; maxTokens: number }> = {
  short: { extent: 'one or two sentences', maxTokens: 120 },
  medium: { extent: 'three to five sentences', maxTokens: 300 },
  long: { extent: 'one paragraph of about eight sentences', maxTokens: 600 },
};

/** Section marker of the prompt; generation stops before the model starts another section. */
const SECTION = '###';

/** The completion parameters of a summary (the rest are the service's defaults). */
export function summaryParameters(length: SummaryLength) {
  return {
    model: TEXTGEN_MODEL,
    maxTokens: PRESETS[length].maxTokens,
    temperature: 0.3,
    topP: 0.8,
    stopBefore: [SECTION],
  } as const;
}

/** The cue that ends the prompt; what the model writes after it is the summary. */
export const summaryCue = (languageName: string) => `${SECTION} Summary (${languageName})`;

/** `languageName` is the language the summary is written in, e.g. "English" or "the language of the text". */
export function summaryPrompt(text: string, languageName: string, length: SummaryLength): string {
  return (
    `${SECTION} Instruction\n` +
    `Summarize the text below in ${languageName}, in ${PRESETS[length].extent}. ` +
    'Keep names, numbers and terms in <span translate="no"> tags as written. Write only the summary.\n\n' +
    `${SECTION} Text\n${text.trim()}\n\n` +
    `${summaryCue(languageName)}\n`
  );
}

/**
 * The completion's result.text holds the prompt and the generated text: keep only what was generated. Falls back
 * to what follows the last cue when the service echoes the prompt with changed whitespace, and to the whole text
 * when there is no echo at all.
 */
export function generatedPart(fullText: string, prompt: string, cue: string): string {
  if (fullText.startsWith(prompt)) return fullText.slice(prompt.length).trim();
  const at = fullText.lastIndexOf(cue);
  if (at !== -1) return fullText.slice(at + cue.length).trim();
  return fullText.trim();
}
