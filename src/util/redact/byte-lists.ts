/**
 * Byte lists: a text's bytes written as numbers, the way programs print a byte array. Node's Buffer as JSON
 * (`{"type":"Buffer","data":[99,115,…]}`), Go's `[99 115 …]`, Java's `[99, 115, …]` (signed: `-61` is 0xC3), C's
 * `{0x63, 0x73, …}`, octal (`%o` in Go: `[143 163 …]`, `0143`, `0o143`). A run of at least `min` numbers, separated by
 * commas, semicolons or white space, is read as decimal (with `0x` and `0o` as they say) and, when every number is
 * made of octal digits, as octal too; each reading whose numbers are bytes (-128 to 255) becomes a run of the view,
 * one unit per byte.
 */
import { Builder, forEachRun, unitsOf, type Decoder } from './view.js';

/** What a byte list is made of: where one may be, the regular expression reads. */
const LIST_UNITS = unitsOf('0123456789abcdefABCDEFxXoO-,; \t\r\n');

/** One number of a list, whole: a token that is anything else breaks the list. */
const NUMBER = /^-?(?:0[xX][0-9a-fA-F]{1,2}|0[oO][0-7]{1,3}|[0-9]{1,4})$/;
/** What may stand between two numbers: one comma or semicolon (no line break before it), or white space alone. */
const SEPARATOR = /^(?:[ \t]*[,;][ \t\r\n]*|[ \t\r\n]+)$/;
/** The separator characters; a token is a stretch of anything else of the run. */
const SEPARATORS = unitsOf(',; \t\r\n');
const isSeparator = (code: number) => code < 128 && SEPARATORS[code] === 1;
/** Before or after a list, a unit of a longer number or word (`1.5`, `v2`): a list stands apart. */
const WORDY = /[\w.]/;

/** A number's byte, read in `base` (0x and 0o say their own), or -1 when it is none. */
function byteOf(token: string, base: 8 | 10): number {
  const negative = token.startsWith('-');
  const digits = negative ? token.slice(1) : token;
  const prefix = digits.slice(0, 2).toLowerCase();
  let value: number;
  if (prefix === '0x') value = parseInt(digits.slice(2), 16);
  else if (prefix === '0o') value = parseInt(digits.slice(2), 8);
  else if (base === 8 && !/^[0-7]+$/.test(digits)) return -1;
  else value = parseInt(digits, base);
  if (negative) value = -value;
  if (value < -128 || value > 255 || Number.isNaN(value)) return -1;
  return value < 0 ? value + 256 : value;
}

export const decodeByteLists: Decoder = (view, min) => {
  const { text } = view;
  let builder: Builder | undefined;
  // The numbers of the list being read, by where they are: two growing arrays, not an object per number (a list of
  // millions of numbers would hold tens of bytes per character of the answer).
  let starts = new Int32Array(64);
  let ends = new Int32Array(64);
  let count = 0;
  // Whether the octal reading can differ from the decimal one: a number of several digits, or with an 8 or a 9.
  let octalDiffers = false;
  const push = (from: number, to: number) => {
    if (count === starts.length) {
      const grown = [new Int32Array(count * 2), new Int32Array(count * 2)] as const;
      grown[0].set(starts);
      grown[1].set(ends);
      [starts, ends] = grown;
    }
    starts[count] = from;
    ends[count] = to;
    count += 1;
  };
  const close = () => {
    if (count >= min) {
      readList(10);
      if (octalDiffers) readList(8);
    }
    count = 0;
    octalDiffers = false;
  };
  // A list of `min` numbers is at least 2 * min - 1 units long. Each run is read token by token, once: a regular
  // expression of the whole list would backtrack through a run of millions of numbers (4 MiB of `7,7,…`) and run out
  // of stack.
  forEachRun(text, LIST_UNITS, 2 * min - 1, Infinity, (from, to) => {
    let at = from;
    let gapFrom = from;
    while (at < to) {
      let end = at;
      while (end < to && !isSeparator(text.charCodeAt(end))) end += 1;
      const token = text.slice(at, end);
      const before = at === from ? text[at - 1] : undefined;
      const after = end === to ? text[end] : undefined;
      const apart = (before === undefined || !WORDY.test(before)) && (after === undefined || !WORDY.test(after));
      if (!NUMBER.test(token) || !apart) close();
      else {
        if (count > 0 && !SEPARATOR.test(text.slice(gapFrom, at))) close();
        push(at, end);
        if (!octalDiffers && /^-?(?:\d{2,}|[89])$/.test(token)) octalDiffers = true;
      }
      gapFrom = end;
      at = end;
      while (at < to && isSeparator(text.charCodeAt(at))) at += 1;
    }
    close();
    return to;
  });
  return builder?.view();

  /** The longest stretches of the list's numbers that are bytes in this base, each a run of the view. */
  function readList(base: 8 | 10): void {
    let from = 0;
    for (let k = 0; k <= count; k += 1) {
      if (k < count && byteOf(text.slice(starts[k]!, ends[k]!), base) !== -1) continue;
      if (k - from >= min) {
        builder ??= new Builder(view, text.length);
        builder.addBreak(starts[from]!);
        for (let i = from; i < k; i += 1) {
          builder.add(byteOf(text.slice(starts[i]!, ends[i]!), base), starts[i]!, ends[i]!);
        }
      }
      from = k + 1;
    }
  }
};
