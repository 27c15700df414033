/**
 * Escapes: JSON and JavaScript string escapes (`\uXXXX`, `\u{…}`, `\xHH`, octal `\101`, `\/`, `\"`…), percent encoding
 * (`%XX`, UTF-8 sequences as one character), HTML and XML character references, numeric and named (every HTML5 name
 * of an ASCII character: `&plus;`, `&sol;`, `&lowbar;`…); and quoted-printable (`=3D`, soft line breaks `=\r\n`)
 * apart, since `key=AB` is no escape elsewhere. Each one linear pass; the view is at most as long as what it reads.
 */
import { Builder, hexAt, type Decoder, type View } from './view.js';

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

const isAlphanumericOrSpace = (point: number) =>
  ((point | 0x20) - 0x61) >>> 0 < 26 || (point - 0x30) >>> 0 < 10 || point === 0x20;

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
    const end = this.#encodedBytes(text, i, 0x3d);
    // A lone `=XX` that spells a letter, a digit or a space is a name and its value (`pageSize=20`, `id=41`): a
    // quoted-printable encoder writes those as they are, unless it encodes every byte (then `=XX` come in a row).
    const softBreakBefore =
      text[i - 1] === '\n' && (text[i - 2] === '=' || (text[i - 2] === '\r' && text[i - 3] === '='));
    const lone = byteAt(text, end, 0x3d) === -1 && byteAt(text, i - 3, 0x3d) === -1 && !softBreakBefore;
    return end !== -1 && lone && isAlphanumericOrSpace(this.point) ? -1 : end;
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
    builder ??= new Builder(view, text.length, true);
    builder.copy(text, copied, i);
    if (reader.point >= 0) builder.addPoint(reader.point, i, end);
    copied = end;
    leads.lastIndex = end;
  }
  if (!builder) return undefined;
  builder.copy(text, copied, text.length);
  return builder.view();
}

// A search for a single character is native and fast (no regular expression): most texts hold none of these.
export const decodeEscapes: Decoder = (view) =>
  view.text.indexOf('\\') === -1 && view.text.indexOf('%') === -1 && view.text.indexOf('&') === -1
    ? undefined
    : unescaping(view, /[\\%&]/g, (reader, text, i) => reader.read(text, i));

export const decodeQuotedPrintable: Decoder = (view) =>
  view.text.indexOf('=') === -1 ? undefined : unescaping(view, /=/g, (reader, text, i) => reader.readQuoted(text, i));
