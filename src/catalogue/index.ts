export * from './types.js';
export * from './catalogue.js';
export * from './translation-rules.js';
export { CRS_CODES, COORDINATE_SYSTEMS, STANDARD_UTM_K } from './maps.js';
export { AI_FILTERS, AI_FILTER_SCORES } from './textgen.js';
export { JOB_STATES } from './dataflow.js';
export { TOKENIZER_LANGUAGES } from './tokenizer-languages.js';
