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

const NUMBER = String.raw`-?(?:0[xX][0-9a-fA-F]{1,2}|0[oO][0-7]{1,3}|[0-9]{1,4})`;
const SEPARATOR = String.raw`(?:[ \t]*[,;][ \t\r\n]*|[ \t\r\n]+)`;
const lists = new Map<number, RegExp>();
function listsOf(min: number): RegExp {
  let pattern = lists.get(min);
  if (!pattern) {
    // Not part of a longer number or word (`1.5`, `v2`): a list stands apart.
    pattern = new RegExp(String.raw`(?<![\w.])${NUMBER}(?:${SEPARATOR}${NUMBER}){${min - 1},}(?![\w.])`, 'g');
    lists.set(min, pattern);
  }
  pattern.lastIndex = 0;
  return pattern;
}
const TOKEN = /-?(?:0[xXoO])?[0-9a-fA-F]+/g;

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
  const pattern = listsOf(min);
  // A list of `min` numbers is at least 2 * min - 1 units long.
  forEachRun(text, LIST_UNITS, 2 * min - 1, Infinity, (from, to) => {
    // The run alone, and the unit before it: the pattern looks there for what a list cannot follow. (On the whole
    // text, a search that finds no list in the run would go on to the text's end: a pass per run.)
    const start = Math.max(0, from - 1);
    const run = text.slice(start, to);
    pattern.lastIndex = 0;
    for (let list = pattern.exec(run); list; list = pattern.exec(run)) readList(list, start);
    return to;
  });
  return builder?.view();

  function readList(list: RegExpExecArray, offset: number): void {
    const tokens: { at: number; text: string }[] = [];
    TOKEN.lastIndex = 0;
    for (let token = TOKEN.exec(list[0]); token; token = TOKEN.exec(list[0])) {
      tokens.push({ at: offset + list.index + token.index, text: token[0] });
    }
    for (const base of [10, 8] as const) {
      // The longest stretches of numbers that are bytes in this base.
      let from = 0;
      for (let k = 0; k <= tokens.length; k += 1) {
        if (k < tokens.length && byteOf(tokens[k]!.text, base) !== -1) continue;
        if (k - from >= min) {
          builder ??= new Builder(view, text.length);
          builder.addBreak(tokens[from]!.at);
          for (const { at, text: token } of tokens.slice(from, k))
            builder.add(byteOf(token, base), at, at + token.length);
        }
        from = k + 1;
      }
    }
  }
};
