/**
 * A text as the views are searched: each UTF-16 unit in its lower case when that is one unit (`İ`, whose lower case
 * is two, stays as it is), a space as `+` (a URL's form encoding), a fullwidth form (`ｓ`, U+FF01 to U+FF5E) as its
 * ASCII character and the ideographic space as a space; and without the units no one sees: line breaks and the white
 * space that indents the line after one (a wrapped spelling), zero-width characters, soft hyphens and bidirectional
 * marks (put between the characters of a secret, they hide it from a plain search).
 */
import { BREAK, stringOf } from './view.js';

/** A folded text, and where each of its units is in the text folded (undefined: unit for unit). */
export interface Folded {
  readonly text: string;
  readonly at: Int32Array | undefined;
}

/** The units beyond ASCII left out, as ranges [first, last]: invisible between two characters. */
const INVISIBLE: readonly (readonly [number, number])[] = [
  [0xad, 0xad], // soft hyphen
  [0x34f, 0x34f], // combining grapheme joiner
  [0x61c, 0x61c], // Arabic letter mark
  [0x115f, 0x1160], // Hangul fillers
  [0x17b4, 0x17b5], // Khmer inherent vowels
  [0x180e, 0x180e], // Mongolian vowel separator
  [0x200b, 0x200f], // zero-width space, non-joiner, joiner; left-to-right and right-to-left marks
  [0x202a, 0x202e], // bidirectional embeddings and overrides
  [0x2060, 0x2064], // word joiner, invisible operators
  [0x2066, 0x2069], // bidirectional isolates
  [0xfeff, 0xfeff], // zero-width no-break space
];
const DROPPED = new Uint8Array(0x10000);
for (const [first, last] of INVISIBLE) DROPPED.fill(1, first, last + 1);
DROPPED[0x0a] = DROPPED[0x0d] = 1;
const isDropped = (unit: number) => DROPPED[unit] === 1;
const escaped = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;
/**
 * Whether a text holds none of the units left out beyond ASCII (a test of the whole text: `^[^…]*$` is read by
 * native code at a few bytes a nanosecond, several times faster than a search for one of them).
 */
const NONE_DROPPED = new RegExp(
  `^[^${INVISIBLE.map(([first, last]) => (first === last ? escaped(first) : `${escaped(first)}-${escaped(last)}`)).join('')}]*$`,
);
const isIndent = (unit: number) => unit === 0x20 || unit === 0x09;

export function foldView(text: string): Folded {
  const ascii = ASCII_ONLY.test(text);
  const lineBreaks = text.indexOf('\n') !== -1 || text.indexOf('\r') !== -1;
  if (!lineBreaks && (ascii || NONE_DROPPED.test(text)))
    return { text: ascii ? asciiFold(text) : fold(text), at: undefined };
  const units = new Uint16Array(text.length);
  const at = new Int32Array(text.length);
  let length = 0;
  let afterBreak = false;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (isDropped(unit)) {
      afterBreak ||= unit === 0x0a || unit === 0x0d;
      continue;
    }
    if (afterBreak && isIndent(unit)) continue;
    afterBreak = false;
    at[length] = i;
    units[length++] = foldedUnit(unit);
  }
  return { text: stringOf(units, length), at: at.subarray(0, length) };
}

/** The fold of a text with nothing to leave out (a secret, or most answers), unit for unit. */
export function fold(text: string): string {
  if (ASCII_ONLY.test(text)) return asciiFold(text);
  // The units as an array of their own (native), folded in place through the table, read back as a string (native).
  const bytes = Buffer.from(text, 'utf16le');
  // Node's pool hands out buffers at offsets of 8: the units can be read in place.
  const units =
    bytes.byteOffset % 2 === 0
      ? new Uint16Array(bytes.buffer, bytes.byteOffset, text.length)
      : new Uint16Array(Uint8Array.from(bytes).buffer);
  const table = FOLDED;
  const n = units.length;
  for (let i = 0; i < n; i += 1) {
    const unit = units[i]!;
    const folded = table[unit]!;
    units[i] = folded === 0 ? foldUnit(unit) : folded;
  }
  return stringOf(units, n);
}

/** A secret as the views are searched: folded, without what a fold leaves out. */
export const foldSecret = (secret: string): string => foldView(secret).text;

/**
 * ASCII text folded at once. One pass over its bytes through a table, whatever they are: `replaceAll(' ', '+')` after
 * `toLowerCase` made 4 MiB of spaces a string of four million pieces, 15 to 30 times slower than as many letters.
 */
function asciiFold(text: string): string {
  if (text.length < 64) return text.toLowerCase().replaceAll(' ', '+'); // a secret: a buffer costs more
  const bytes = Buffer.from(text, 'latin1');
  // Locals: a module's constant is loaded again at every step of the loop (twice the time).
  const table = ASCII_FOLD;
  const n = bytes.length;
  for (let at = 0; at < n; at += 1) bytes[at] = table[bytes[at]!]!;
  return bytes.toString('latin1');
}
const ASCII_ONLY = /^[^\x80-\uffff]*$/;

function foldedUnit(unit: number): number {
  const folded = FOLDED[unit]!;
  return folded === 0 ? foldUnit(unit) : folded;
}

/** The fold of one unit, remembered (U+0000 folds to itself, and is worked out again each time: it is cheap). */
function foldUnit(unit: number): number {
  let folded: number;
  if (unit < 0x80) folded = unit === 0x20 ? 0x2b : unit >= 0x41 && unit <= 0x5a ? unit + 0x20 : unit;
  else if (unit === BREAK) folded = unit;
  else if (unit >= 0xff01 && unit <= 0xff5e) folded = foldUnit(unit - 0xfee0);
  else if (unit === 0x3000) folded = 0x2b;
  else {
    const lower = String.fromCharCode(unit).toLowerCase();
    folded = lower.length === 1 ? lower.charCodeAt(0) : unit;
  }
  FOLDED[unit] = folded;
  return folded;
}
/** The fold of each unit, worked out on first use (0: not yet). */
const FOLDED = new Uint16Array(0x10000);
const ASCII_FOLD = Uint8Array.from({ length: 128 }, (_, unit) => foldUnit(unit));
