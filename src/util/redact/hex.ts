/**
 * Hex: runs of at least `min` byte pairs, in either case, with or without a separator (space, colon, hyphen, comma,
 * line break) between bytes; hexdump lines (`xxd`, `hexdump -C`) with their offsets left out.
 */
import { Builder, MIN_BYTES, forEachRun, hexAt, repeats, unitsOf, type Decoder } from './view.js';

/** Hex digits and what may stand between two bytes of a run. */
const HEX_UNITS = unitsOf('0123456789abcdefABCDEF :,-');
/** The fewest units of a stretch of HEX_UNITS worth reading (a line of a hexdump holds more). */
const LONGEST_CANDIDATE = 32;

const isWordUnit = (unit: number) => ((unit | 0x20) - 0x61) >>> 0 < 26 || (unit - 0x30) >>> 0 < 10;
const isHexSeparator = (unit: number) => unit === 0x20 || unit === 0x3a || unit === 0x2d || unit === 0x2c;
const isLineEnd = (unit: number) => unit === 0x0a || unit === 0x0d;

/** Where the bytes of a hexdump line start after its offset (`00000010: ` or `00000010  `), or -1. */
function afterOffset(text: string, lineStart: number): number {
  let digits = 0;
  while (digits <= 16 && hexAt(text, lineStart + digits) !== -1) digits += 1;
  if (digits < 4 || digits > 16) return -1;
  let at = lineStart + digits;
  const colon = text.charCodeAt(at) === 0x3a;
  if (!colon && !(text.charCodeAt(at) === 0x20 && text.charCodeAt(at + 1) === 0x20)) return -1;
  if (colon) at += 1;
  while (text.charCodeAt(at) === 0x20) at += 1;
  return hexAt(text, at) !== -1 && hexAt(text, at + 1) !== -1 ? at : -1;
}

/**
 * Runs of hex bytes decoded, one unit per byte, runs apart. A run goes on over one separator between bytes, and over
 * a line break when the next line goes on with bytes. Hexdump lines (`xxd`, `hexdump -C`) are read without their
 * offsets and text columns, and a match in them takes whole lines (the text column shows the same bytes). Each run is
 * read from its first digit and from its second: a run glued to a word that ends in a hex letter is read right once.
 */
export const decodeHex: Decoder = (view, min) => {
  const { text } = view;
  const n = text.length;
  let builder: Builder | undefined;
  let wholeLines = false;
  // Runs of bytes are read where hex digits and separators stand together long enough to hold `min` bytes (or a
  // line of a hexdump), from the first two digits side by side.
  forEachRun(text, HEX_UNITS, Math.min(2 * min, LONGEST_CANDIDATE), 2 * MIN_BYTES, (from, to, edge) => {
    const fewest = edge ? MIN_BYTES : min;
    let i = from;
    while (i < to) {
      if (hexAt(text, i) === -1 || hexAt(text, i + 1) === -1) {
        i += 1;
        continue;
      }
      let end = i + 1;
      // Read again from the second digit when the run is glued to a word (`key7365…`; `0x7365…` aside), or when its
      // first group before a separator has an odd number of digits (`B73:65:…`).
      let token = i;
      while (hexAt(text, token) !== -1) token += 1;
      const glued = i > 0 && isWordUnit(text.charCodeAt(i - 1)) && text[i - 1] !== 'x';
      const odd = (token - i) % 2 === 1 && isHexSeparator(text.charCodeAt(token));
      for (const start of glued || odd ? [i, i + 1] : [i]) {
        const run = hexRun(text, start);
        end = Math.max(end, run.end);
        if (run.bytes.length / 2 < fewest || repeats(text, start, run.end)) continue;
        builder ??= new Builder(view, n);
        builder.addBreak(start);
        for (let b = 0; b < run.bytes.length; b += 2) builder.add(run.bytes[b + 1]!, run.bytes[b]!, run.bytes[b]! + 2);
        wholeLines ||= run.dump;
      }
      i = end;
    }
    return i;
  });
  return builder?.view(wholeLines);
};

/** The run of hex bytes from `i`: position and value of each byte, where it ends, and whether it is a hexdump. */
function hexRun(text: string, i: number): { bytes: number[]; end: number; dump: boolean } {
  const n = text.length;
  const bytes: number[] = []; // position, byte, position, byte...
  const lineStart = i === 0 || isLineEnd(text.charCodeAt(i - 1));
  const offsetEnd = lineStart ? afterOffset(text, i) : -1;
  let dump = offsetEnd !== -1;
  let k = dump ? offsetEnd : i;
  for (;;) {
    const high = hexAt(text, k);
    const low = hexAt(text, k + 1);
    if (high === -1 || low === -1) break;
    bytes.push(k, high * 16 + low);
    k += 2;
    const unit = text.charCodeAt(k);
    if (hexAt(text, k) !== -1) continue;
    if (isHexSeparator(unit) && hexAt(text, k + 1) !== -1 && hexAt(text, k + 2) !== -1) {
      k += 1;
      continue;
    }
    // hexdump -C: two spaces after eight bytes.
    if (dump && unit === 0x20 && text.charCodeAt(k + 1) === 0x20 && hexAt(text, k + 2) !== -1) {
      if (hexAt(text, k + 3) !== -1 && hexAt(text, k + 4) === -1) {
        k += 2;
        continue;
      }
    }
    // The end of a line of bytes (a hexdump's text column passed over), and the next line's bytes.
    let eol = k;
    if (dump) while (eol < n && !isLineEnd(text.charCodeAt(eol))) eol += 1;
    let next = eol;
    if (text.charCodeAt(next) === 0x0d) next += 1;
    if (text.charCodeAt(next) !== 0x0a) break;
    next += 1;
    const bytesAfterOffset = afterOffset(text, next);
    if (bytesAfterOffset !== -1 && (dump || eol === k)) {
      dump = true;
      k = bytesAfterOffset;
    } else if (eol === k && hexAt(text, next) !== -1 && hexAt(text, next + 1) !== -1) {
      k = next;
    } else {
      break;
    }
  }
  return { bytes, end: k, dump };
}
