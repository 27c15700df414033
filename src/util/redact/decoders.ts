import { decodeBase64 } from './base64.js';
import { decodeByteLists } from './byte-lists.js';
import { decodeEscapes, decodeQuotedPrintable } from './escapes.js';
import { decodeHex } from './hex.js';
import { decodeSpaced } from './spaced.js';
import { decodeUtf16 } from './utf16.js';
import type { Decoder } from './view.js';

export { decodeEscapes };

/** Every decoder, in the order views are made. */
export const DECODERS: readonly Decoder[] = [
  decodeEscapes,
  decodeQuotedPrintable,
  decodeHex,
  decodeBase64,
  decodeUtf16,
  decodeByteLists,
  decodeSpaced,
];
