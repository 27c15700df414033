export * from './types.js';
export * from './catalogue.js';
export * from './translation-rules.js';
export { STREAMING_REGIONS, type StreamingRegion } from './fields.js';
export { CRS_CODES, ORDER_TYPES } from './maps.js';
export { AI_FILTERS } from './textgen.js';
export { TOKENIZER_LANGUAGES } from './tokenizer-languages.js';
