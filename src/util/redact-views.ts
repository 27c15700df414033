/**
 * The spellings a redactor looks through, as views of one text: each view is the text (or the parts of it that carry
 * an encoding) decoded one layer further, and remembers for each of its UTF-16 units which span of the original text
 * it came from. A secret is then looked for in each view as plain text: one canonical form per encoding, composed
 * (base64 of percent-encoding, hex of UTF-16, JSON of JSON...), instead of every encoding of every secret listed.
 *
 * Decoders (each one linear pass, each view at most as long as the one it reads):
 * - escapes: JSON and JavaScript string escapes (`\uXXXX`, `\u{…}`, `\xHH`, octal `\101`, `\/`, `\"`…), percent
 *   encoding (`%XX`, UTF-8 sequences as one character), HTML and XML character references, numeric and named (every
 *   HTML5 name of an ASCII character: `&plus;`, `&sol;`, `&lowbar;`…);
 * - quoted-printable (`=3D`, soft line breaks `=\r\n`), apart from the escapes: `key=AB` is no escape there;
 * - hex: runs of at least MIN_BYTES byte pairs, in either case, with or without a separator (space, colon, hyphen,
 *   line break) between bytes; hexdump lines (`xxd`, `hexdump -C`) with their offsets left out;
 * - base64 and base64url: runs of at least MIN_BYTES bytes' worth, line breaks inside them ignored (wrapped at 76
 *   columns, `\r\n`), read from where the run starts, so a secret at any byte offset of the stream is whole;
 * - UTF-16: the text without its U+0000 units (ASCII as UTF-16LE or BE bytes shown as text, or decoded from hex).
 */

/** One view: its units, and where each came from in the original (undefined: the original itself). */
export interface View {
  readonly text: string;
  /** The original offset where the source of unit i starts, and where it ends. */
  readonly start: Int32Array | undefined;
  readonly end: Int32Array | undefined;
  /** Matches in this view widen to whole lines of the original (a hexdump's text column repeats the bytes). */
  readonly wholeLines: boolean;
  readonly depth: number;
}

/**
 * Runs of hex or base64 shorter than this many bytes are not decoded: ordinary words are made of those letters, and a
 * secret looked for in every spelling is at least as long (MIN_SECRET in redact.ts).
 */
export const MIN_BYTES = 8;

/**
 * Whether the characters [from, to) of a run repeat with a period of at most four (`dddd…`, `xxxx…`, `ABAB…`): such a
 * run decodes to bytes repeating with a period of at most three, which no secret is; filler of this kind is common in
 * large answers, and decoding it would only cost.
 */
function repeats(text: string, from: number, to: number): boolean {
  for (const period of [1, 2, 4]) {
    let k = from + period;
    while (k < to && text.charCodeAt(k) === text.charCodeAt(k - period)) k += 1;
    if (k >= to) return true;
  }
  return false;
}
/** What separates two decoded runs in a view: a unit no secret contains, so that no match spans two runs. */
export const BREAK = 0xffff;

/** The root view: the text itself. */
export function rootView(text: string): View {
  return { text, start: undefined, end: undefined, wholeLines: false, depth: 0 };
}

/** Units a view is first made with room for. */
const INITIAL_CAPACITY = 4096;

/** Builds a view from one it reads: each unit added carries the span of the parent's units it was made from. */
class Builder {
  #units: Uint16Array;
  #start: Int32Array;
  #end: Int32Array;
  readonly #parent: View;
  readonly #parentStart: Int32Array | undefined;
  readonly #parentEnd: Int32Array | undefined;
  length = 0;

  /**
   * `capacity` is what the view may grow to; it starts small and doubles, so that a view of a few decoded runs in a
   * large text holds memory for what it has, not for the whole text (a 4 MiB answer made 80 MiB of empty arrays).
   */
  constructor(parent: View, capacity: number) {
    capacity = Math.min(capacity, INITIAL_CAPACITY);
    this.#parent = parent;
    this.#parentStart = parent.start;
    this.#parentEnd = parent.end;
    this.#units = new Uint16Array(capacity);
    this.#start = new Int32Array(capacity);
    this.#end = new Int32Array(capacity);
  }

  /** A unit made from the parent's units [from, to). */
  add(unit: number, from: number, to: number): void {
    if (this.length === this.#units.length) this.#grow();
    const at = this.length++;
    this.#units[at] = unit;
    this.#start[at] = this.#parentStart ? this.#parentStart[from]! : from;
    this.#end[at] = this.#parentEnd ? this.#parentEnd[to - 1]! : to;
  }

  /** The parent's units [from, to) as they are. */
  copy(text: string, from: number, to: number): void {
    while (this.length + (to - from) > this.#units.length) this.#grow();
    const units = this.#units;
    const start = this.#start;
    const end = this.#end;
    const parentStart = this.#parentStart;
    const parentEnd = this.#parentEnd;
    let at = this.length;
    for (let i = from; i < to; i += 1, at += 1) {
      units[at] = text.charCodeAt(i);
      start[at] = parentStart ? parentStart[i]! : i;
      end[at] = parentEnd ? parentEnd[i]! : i + 1;
    }
    this.length = at;
  }

  #grow(): void {
    const size = Math.max(16, this.#units.length * 2);
    const units = new Uint16Array(size);
    const start = new Int32Array(size);
    const end = new Int32Array(size);
    units.set(this.#units);
    start.set(this.#start);
    end.set(this.#end);
    this.#units = units;
    this.#start = start;
    this.#end = end;
  }

  /** A code point made from the parent's units [from, to): two units beyond U+FFFF. */
  addPoint(point: number, from: number, to: number): void {
    if (point > 0xffff) {
      this.add(0xd800 + ((point - 0x10000) >> 10), from, to);
      this.add(0xdc00 + ((point - 0x10000) & 0x3ff), from, to);
    } else {
      this.add(point, from, to);
    }
  }

  /** A break between runs (spans nothing the parent has; never matched). */
  addBreak(at: number): void {
    if (this.length === 0 || this.#units[this.length - 1] === BREAK) return;
    this.add(BREAK, at, at + 1);
  }

  view(wholeLines = false): View {
    const n = this.length;
    return {
      text: stringOf(this.#units, n),
      start: this.#start.subarray(0, n),
      end: this.#end.subarray(0, n),
      wholeLines: wholeLines || this.#parent.wholeLines,
      depth: this.#parent.depth + 1,
    };
  }
}

/** The first `length` units as one flat string, made a slice at a time (an argument list has a size limit). */
export function stringOf(units: Uint16Array, length: number): string {
  const SLICE = 8192;
  const slices: string[] = [];
  for (let at = 0; at < length; at += SLICE) {
    slices.push(
      String.fromCharCode.apply(null, units.subarray(at, Math.min(length, at + SLICE)) as unknown as number[]),
    );
  }
  return slices.join('');
}

export type Decoder = (view: View) => View | undefined;

// ---------------------------------------------------------------------------------------------------------- escapes

/** The value of the hex digit at `i`, or -1 (also past the end). */
export function hexAt(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  const lower = unit | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}
const octalAt = (text: string, i: number) => {
  const unit = text.charCodeAt(i);
  return unit >= 0x30 && unit <= 0x37 ? unit - 0x30 : -1;
};
const digitAt = (text: string, i: number) => {
  const unit = text.charCodeAt(i);
  return unit >= 0x30 && unit <= 0x39 ? unit - 0x30 : -1;
};

/** The byte of `<lead>XX` at `i` (`%41`, `=41`), or -1. */
function byteAt(text: string, i: number, lead: number): number {
  if (text.charCodeAt(i) !== lead) return -1;
  const high = hexAt(text, i + 1);
  const low = hexAt(text, i + 2);
  return high === -1 || low === -1 ? -1 : high * 16 + low;
}

/** Every HTML5 named reference of an ASCII character (the others spell no character a credential holds). */
const NAMED = new Map<string, number>([
  ['Tab', 0x09],
  ['NewLine', 0x0a],
  ['excl', 0x21],
  ['quot', 0x22],
  ['QUOT', 0x22],
  ['num', 0x23],
  ['dollar', 0x24],
  ['percnt', 0x25],
  ['amp', 0x26],
  ['AMP', 0x26],
  ['apos', 0x27],
  ['lpar', 0x28],
  ['rpar', 0x29],
  ['ast', 0x2a],
  ['midast', 0x2a],
  ['plus', 0x2b],
  ['comma', 0x2c],
  ['period', 0x2e],
  ['sol', 0x2f],
  ['colon', 0x3a],
  ['semi', 0x3b],
  ['lt', 0x3c],
  ['LT', 0x3c],
  ['equals', 0x3d],
  ['gt', 0x3e],
  ['GT', 0x3e],
  ['quest', 0x3f],
  ['commat', 0x40],
  ['lsqb', 0x5b],
  ['lbrack', 0x5b],
  ['bsol', 0x5c],
  ['rsqb', 0x5d],
  ['rbrack', 0x5d],
  ['Hat', 0x5e],
  ['lowbar', 0x5f],
  ['UnderBar', 0x5f],
  ['grave', 0x60],
  ['DiacriticalGrave', 0x60],
  ['lcub', 0x7b],
  ['lbrace', 0x7b],
  ['verbar', 0x7c],
  ['vert', 0x7c],
  ['VerticalLine', 0x7c],
  ['rcub', 0x7d],
  ['rbrace', 0x7d],
  ['nbsp', 0xa0],
]);
/** The names HTML also reads without their semicolon. */
const LEGACY = new Set(['quot', 'QUOT', 'amp', 'AMP', 'lt', 'LT', 'gt', 'GT', 'nbsp']);
const LONGEST_NAME = 16;

/** A letter, digit, `_` or white space: escaped, none of them is itself. */
const isWordOrSpace = (unit: number) =>
  ((unit | 0x20) - 0x61) >>> 0 < 26 || (unit - 0x30) >>> 0 < 10 || unit === 0x5f || unit <= 0x20 || unit > 0x7e;

const SIMPLE_ESCAPES: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, b: 0x08, f: 0x0c, v: 0x0b };

/** Reads the escape that starts at a position, if one does: where it ends and the code point it spells. */
class EscapeReader {
  point = 0;

  /** The end of the escape at `i` (its code point in `point`), or -1 when none starts there. */
  read(text: string, i: number): number {
    switch (text.charCodeAt(i)) {
      case 0x5c: // \
        return this.#backslash(text, i);
      case 0x25: // %
        return this.#encodedBytes(text, i, 0x25);
      case 0x26: // &
        return this.#reference(text, i);
      default:
        return -1;
    }
  }

  /** JSON's and JavaScript's: `\uXXXX`, `\u{…}`, `\xHH`, octal up to `\377`, and one character after a backslash. */
  #backslash(text: string, i: number): number {
    const next = text[i + 1];
    if (next === undefined) return -1;
    if (next === 'u' || next === 'U') {
      if (text[i + 2] === '{') {
        let point = 0;
        let k = i + 3;
        for (; hexAt(text, k) !== -1 && k < i + 10; k += 1) point = point * 16 + hexAt(text, k);
        return k > i + 3 && text[k] === '}' && point <= 0x10ffff ? this.#found(point, k + 1) : -1;
      }
      return this.#hexDigits(text, i + 2, 4);
    }
    if (next === 'x' || next === 'X') return this.#hexDigits(text, i + 2, 2);
    if (octalAt(text, i + 1) !== -1) {
      let point = 0;
      let k = i + 1;
      for (; k < i + 4 && octalAt(text, k) !== -1 && point * 8 + octalAt(text, k) <= 0xff; k += 1) {
        point = point * 8 + octalAt(text, k);
      }
      return this.#found(point, k);
    }
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) return this.#found(simple, i + 2);
    // `\"`, `\\`, `\/`, `\'` and any other character escaped for no reason: the character itself.
    return isWordOrSpace(next.charCodeAt(0)) ? -1 : this.#found(next.charCodeAt(0), i + 2);
  }

  #hexDigits(text: string, from: number, count: number): number {
    let point = 0;
    for (let k = from; k < from + count; k += 1) {
      const digit = hexAt(text, k);
      if (digit === -1) return -1;
      point = point * 16 + digit;
    }
    return this.#found(point, from + count);
  }

  /**
   * `%XX` (or quoted-printable's `=XX`): a whole UTF-8 sequence of them is one character; a byte that starts none is
   * the character of its value (bytes shown as Latin-1, as a byte view spells them).
   */
  #encodedBytes(text: string, i: number, lead: number): number {
    const first = byteAt(text, i, lead);
    if (first === -1) return -1;
    const length =
      first >= 0xc2 && first < 0xe0 ? 2 : first >= 0xe0 && first < 0xf0 ? 3 : first >= 0xf0 && first < 0xf5 ? 4 : 1;
    let point = length === 1 ? first : first & (0xff >> (length + 1));
    for (let k = 1; k < length; k += 1) {
      const byte = byteAt(text, i + 3 * k, lead);
      const overlong =
        k === 1 &&
        ((first === 0xe0 && byte < 0xa0) ||
          (first === 0xed && byte > 0x9f) ||
          (first === 0xf0 && byte < 0x90) ||
          (first === 0xf4 && byte > 0x8f));
      if (byte === -1 || (byte & 0xc0) !== 0x80 || overlong) return this.#found(first, i + 3);
      point = (point << 6) | (byte & 0x3f);
    }
    return this.#found(point, i + 3 * length);
  }

  /** `&#107;` and `&#x6B;` (the `;` may be left out, as HTML allows), and the named references above. */
  #reference(text: string, i: number): number {
    if (text[i + 1] !== '#') {
      let k = i + 1;
      while (k < i + 1 + LONGEST_NAME && ((text.charCodeAt(k) | 0x20) - 0x61) >>> 0 < 26) k += 1;
      const name = text.slice(i + 1, k);
      const point = NAMED.get(name);
      if (point === undefined) return -1;
      if (text[k] === ';') return this.#found(point, k + 1);
      return LEGACY.has(name) ? this.#found(point, k) : -1;
    }
    const hex = text[i + 2] === 'x' || text[i + 2] === 'X';
    let k = hex ? i + 3 : i + 2;
    const first = k;
    let point = 0;
    for (; ; k += 1) {
      const digit = hex ? hexAt(text, k) : digitAt(text, k);
      if (digit === -1) break;
      point = Math.min(point * (hex ? 16 : 10) + digit, 0x110000); // leading zeros may be many; the value stays small
    }
    if (k === first || point > 0x10ffff) return -1;
    return this.#found(point, text[k] === ';' ? k + 1 : k);
  }

  /** Quoted-printable: `=XX`, and a soft line break (`=` at the end of a line) as nothing (point -1). */
  readQuoted(text: string, i: number): number {
    if (text.charCodeAt(i) !== 0x3d) return -1;
    if (text[i + 1] === '\n') return this.#found(-1, i + 2);
    if (text[i + 1] === '\r' && text[i + 2] === '\n') return this.#found(-1, i + 3);
    return this.#encodedBytes(text, i, 0x3d);
  }

  #found(point: number, end: number): number {
    this.point = point;
    return end;
  }
}

/**
 * A view with one kind of escape decoded, or undefined when the text holds none. `leads` finds where an escape may
 * start; the text between is copied as it is.
 */
function unescaping(
  view: View,
  leads: RegExp,
  read: (reader: EscapeReader, text: string, i: number) => number,
): View | undefined {
  const { text } = view;
  const reader = new EscapeReader();
  let builder: Builder | undefined;
  let copied = 0; // text before this is in the builder
  leads.lastIndex = 0;
  for (let match = leads.exec(text); match; match = leads.exec(text)) {
    const i = match.index;
    const end = read(reader, text, i);
    if (end === -1) continue;
    builder ??= new Builder(view, text.length);
    builder.copy(text, copied, i);
    if (reader.point >= 0) builder.addPoint(reader.point, i, end);
    copied = end;
    leads.lastIndex = end;
  }
  if (!builder) return undefined;
  builder.copy(text, copied, text.length);
  return builder.view();
}

export const decodeEscapes: Decoder = (view) => unescaping(view, /[\\%&]/g, (reader, text, i) => reader.read(text, i));

export const decodeQuotedPrintable: Decoder = (view) =>
  unescaping(view, /=/g, (reader, text, i) => reader.readQuoted(text, i));

// -------------------------------------------------------------------------------------------------------------- hex

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
export const decodeHex: Decoder = (view) => {
  const { text } = view;
  const n = text.length;
  let builder: Builder | undefined;
  let wholeLines = false;
  let i = 0;
  while (i < n) {
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
    for (const from of glued || odd ? [i, i + 1] : [i]) {
      const run = hexRun(text, from);
      end = Math.max(end, run.end);
      if (run.bytes.length / 2 < MIN_BYTES || repeats(text, from, run.end)) continue;
      builder ??= new Builder(view, n);
      builder.addBreak(from);
      for (let b = 0; b < run.bytes.length; b += 2) builder.add(run.bytes[b + 1]!, run.bytes[b]!, run.bytes[b]! + 2);
      wholeLines ||= run.dump;
    }
    i = end;
  }
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

// ----------------------------------------------------------------------------------------------------------- base64

/** The 6-bit value of a base64 or base64url character, or -1. */
const SEXTET = new Int8Array(128).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'].entries()) {
  SEXTET[c.charCodeAt(0)] = i;
}
SEXTET[0x2b] = SEXTET[0x2d] = 62; // + -
SEXTET[0x2f] = SEXTET[0x5f] = 63; // / _
const sextetAt = (text: string, i: number) => {
  const unit = text.charCodeAt(i);
  return unit < 128 ? SEXTET[unit]! : -1;
};
/** Fewer characters than this (MIN_BYTES bytes) are no run worth decoding. */
const MIN_CHARS = Math.ceil((MIN_BYTES * 8) / 6);

/**
 * Runs of base64 (either alphabet) decoded from where each starts, one unit per byte; a line break inside a run (LF
 * or CRLF followed by more of it) is passed over. Each byte maps to the characters that hold its bits.
 */
export const decodeBase64: Decoder = (view) => {
  const { text } = view;
  const n = text.length;
  let builder: Builder | undefined;
  let positions: Int32Array | undefined; // of the current run's characters
  let i = 0;
  while (i < n) {
    if (sextetAt(text, i) === -1) {
      i += 1;
      continue;
    }
    // Room for a run as long as it turns out to be: most runs are words, and a 4 MiB text is no run of 4 MiB.
    positions ??= new Int32Array(Math.min(n, INITIAL_CAPACITY));
    let count = 0;
    let secondLine = -1;
    let k = i;
    for (;;) {
      if (sextetAt(text, k) !== -1) {
        if (count === positions.length) positions = grown(positions);
        positions[count++] = k++;
        continue;
      }
      let next = k;
      if (text.charCodeAt(next) === 0x0d) next += 1;
      if (text.charCodeAt(next) === 0x0a) next += 1;
      if (next === k || sextetAt(text, next) === -1) break;
      if (secondLine === -1) secondLine = count;
      k = next;
    }
    if (count >= MIN_CHARS && !repeats(text, i, k)) {
      builder ??= new Builder(view, 2 * n); // a run may be read twice: 3/4 of a unit per character each time
      addBytes(builder, text, positions, 0, count);
      // A wrapped stream may start on the second line of the run (after a heading such as `-----BEGIN X-----`,
      // whose dashes are base64url): read from there too.
      if (secondLine > 0 && count - secondLine >= MIN_CHARS) addBytes(builder, text, positions, secondLine, count);
    }
    i = k;
  }
  return builder?.view();
};

/** The same positions in an array of twice the room. */
function grown(positions: Int32Array): Int32Array {
  const more = new Int32Array(positions.length * 2);
  more.set(positions);
  return more;
}

/** The bytes of the base64 characters at positions [from, to), each mapped to the characters that hold its bits. */
function addBytes(builder: Builder, text: string, positions: Int32Array, from: number, to: number): void {
  builder.addBreak(positions[from]!);
  let value = 0;
  let bits = 0;
  let byte = 0;
  for (let c = from; c < to; c += 1) {
    value = ((value << 6) | sextetAt(text, positions[c]!)) & 0xfff;
    bits += 6;
    if (bits < 8) continue;
    bits -= 8;
    // Byte j is bits [8j, 8j + 8) of the stream: characters floor(8j / 6) to floor((8j + 7) / 6).
    builder.add((value >> bits) & 0xff, positions[from + Math.floor((8 * byte) / 6)]!, positions[c]! + 1);
    byte += 1;
  }
}

// ----------------------------------------------------------------------------------------------------------- UTF-16

/**
 * Runs of UTF-16 read a byte at a time: every other unit U+0000 (ASCII as UTF-16LE or BE bytes shown as text, or
 * decoded from hex or base64), at least MIN_BYTES pairs, read without those zeros.
 */
export const decodeUtf16: Decoder = (view) => {
  const { text } = view;
  const n = text.length;
  let builder: Builder | undefined;
  for (let zero = text.indexOf('\0'); zero !== -1;) {
    // The run's units sit either just before each zero (LE) or just after (BE); a run alone cannot tell which, and
    // both are read.
    let end = zero + 1;
    for (const side of [-1, 1]) {
      let count = 0;
      let at = zero;
      while (text.charCodeAt(at) === 0 && at + side >= 0 && at + side < n) {
        count += 1;
        at += 2;
      }
      end = Math.max(end, at);
      if (count < MIN_BYTES) continue;
      builder ??= new Builder(view, n);
      builder.addBreak(zero);
      for (let k = 0, z = zero; k < count; k += 1, z += 2) {
        builder.add(text.charCodeAt(z + side), Math.min(z, z + side), Math.max(z, z + side) + 1);
      }
    }
    zero = text.indexOf('\0', end);
  }
  return builder?.view();
};

/** Every decoder, in the order views are made. */
export const DECODERS: readonly Decoder[] = [
  decodeEscapes,
  decodeQuotedPrintable,
  decodeHex,
  decodeBase64,
  decodeUtf16,
];
