/** E14's answer as the spec gives it: the tokenizer (index processor) of each language. Shown by the reference
 * resource and answered by the sandbox. */
export const TOKENIZER_LANGUAGES = [
  { language: 'chinese', type: 'hanaterm', method: 'sgmt', option: '+china +china_cn +china_tw' },
  { language: 'english', type: 'hanaterm', method: 'sgmt', option: '+english +revert' },
  { language: 'indonesian', type: 'hanaterm', method: 'sgmt', option: '+indonesian' },
  { language: 'japanese', type: 'hanaterm', method: 'sgmt', option: '+japan +josacat +eomicat' },
  { language: 'korean', type: 'hanaterm', method: 'sgmt', option: '+korea +josacat +eomicat' },
  { language: 'thai', type: 'hanaterm', method: 'sgmt', option: '+thai' },
] as const;
