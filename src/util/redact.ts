/**
 * Keeps secrets out of text we return or log. A secret is found however an upstream echoed it: as is, in any case,
 * JSON-escaped (`\"`, `\\`, `\/` or `\uXXXX`), URL-encoded (`%XX`, `+` for a space), as HTML or XML character
 * references (`&#107;`, `&#x6B;`, `&quot;`), each character spelled its own way; as hex of its UTF-8 bytes; and as
 * base64 or base64url at any offset within a longer encoded blob. The value after a credential header's name
 * (`x-…-signature-v2: …`) is replaced whatever it is.
 *
 * How: the text is read once into a plain view (escapes decoded, each UTF-16 unit in lower case) that remembers
 * where each unit came from; each spelling of each secret is looked up there with indexOf, and what matched is cut
 * from the original. No regular expression is built from the secrets: one that matches every spelling of a secret
 * takes milliseconds to compile, and every call has secrets of its own (its signature). Time and memory are linear
 * in the text: the view and what it is made with take at most 10 bytes per character of it, whatever it holds.
 */
export class Redactor {
  readonly #secrets: readonly string[];
  readonly #headers: readonly string[];
  /** Every spelling of every secret in the view's form, longest first. */
  readonly #needles: readonly Needle[];
  readonly #headerValues: RegExp | undefined;
  /** The header names as the view spells them. */
  readonly #headerNames: readonly string[];

  constructor(secrets: Iterable<string>, credentialHeaders: Iterable<string> = []) {
    this.#secrets = [...new Set(secrets)].filter((s) => s !== '');
    this.#headers = [...new Set(credentialHeaders)];
    this.#needles = merged(this.#secrets.flatMap(needles));
    this.#headerValues = headerValuePattern(this.#headers);
    this.#headerNames = this.#headers.map(plain);
  }

  redact(text: string): string {
    if (this.#needles.length === 0 && !this.#headerValues) return text;
    const view = new View(text);
    let out = this.#needles.length > 0 ? withoutNeedles(text, view, this.#needles) : text;
    // The pattern scans the whole text; most texts name no credential header at all.
    if (this.#headerValues && this.#headerNames.some((name) => view.text.includes(name))) {
      out = out.replace(this.#headerValues, '$1$2[redacted]');
    }
    return out;
  }

  /** A redactor that also knows these secrets (e.g. the ones one call sent). */
  with(secrets: Iterable<string>, credentialHeaders: Iterable<string> = []): Redactor {
    return new Redactor([...this.#secrets, ...secrets], [...this.#headers, ...credentialHeaders]);
  }
}

const REDACTED = '[redacted]';

/**
 * One spelling of a secret as the view spells it. `before` and `after` (0 or 1) are the units next to a match that
 * still carry bits of the secret: the base64 characters it shares with the bytes around it in a longer blob.
 */
interface Needle {
  readonly text: string;
  readonly before: number;
  readonly after: number;
}

/**
 * Encoded spellings (hex, base64) shorter than this are not looked for: a few letters that ordinary text holds by
 * chance (the view ignores case). Real credentials are far longer.
 */
const MIN_ENCODED = 6;

/**
 * Every spelling of a secret: as is, as the view reads it (should it hold escapes itself), hex, base64 and base64url at
 * each offset.
 */
function needles(secret: string): readonly Needle[] {
  let known = needleCache.get(secret);
  if (!known) {
    const found: Needle[] = [
      { text: plain(secret), before: 0, after: 0 },
      { text: new View(secret).text, before: 0, after: 0 },
    ];
    const bytes = Buffer.from(secret, 'utf8');
    const hex = bytes.toString('hex');
    if (hex.length >= MIN_ENCODED) found.push({ text: hex, before: 0, after: 0 });
    found.push(...base64Needles(bytes));
    known = merged(found);
    if (needleCache.size >= 256) needleCache.clear(); // the process's own keys, and one signature per call
    needleCache.set(secret, known);
  }
  return known;
}
/** Most secrets (the configured keys) come back with every call: their spellings are worked out once. */
const needleCache = new Map<string, readonly Needle[]>();

/**
 * The secret's bytes inside a longer base64 blob start at a byte offset of 0, 1 or 2 within a 3-byte group. For
 * each, the characters that hold only bits of the secret are the same whatever surrounds it: those are looked for,
 * and the character on each side that holds some of its bits is redacted with them.
 */
function base64Needles(bytes: Buffer): Needle[] {
  const out: Needle[] = [];
  for (const offset of [0, 1, 2]) {
    const startBit = 8 * offset;
    const endBit = 8 * (offset + bytes.length);
    const url = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString('base64url')
      .slice(Math.ceil(startBit / 6), Math.floor(endBit / 6));
    if (url.length < MIN_ENCODED) continue;
    const around = { before: startBit % 6 === 0 ? 0 : 1, after: endBit % 6 === 0 ? 0 : 1 };
    out.push(
      { text: plain(url), ...around },
      { text: plain(url.replaceAll('-', '+').replaceAll('_', '/')), ...around },
    );
  }
  return out;
}

/** One needle per spelling (the widest margins of its duplicates), longest first. */
function merged(list: readonly Needle[]): Needle[] {
  const byText = new Map<string, Needle>();
  for (const needle of list) {
    if (needle.text === '') continue;
    const seen = byText.get(needle.text);
    byText.set(
      needle.text,
      seen
        ? { text: needle.text, before: Math.max(seen.before, needle.before), after: Math.max(seen.after, needle.after) }
        : needle,
    );
  }
  return [...byText.values()].sort((a, b) => b.text.length - a.text.length);
}

/** The original text with every occurrence of a needle in its view replaced. */
function withoutNeedles(text: string, view: View, needleList: readonly Needle[]): string {
  const spans: [number, number][] = [];
  for (const { text: needle, before, after } of needleList) {
    for (let at = view.text.indexOf(needle); at !== -1; at = view.text.indexOf(needle, at + 1)) {
      const start = Math.max(0, at - before);
      const end = Math.min(view.text.length, at + needle.length + after);
      spans.push([view.originalStart(start), view.originalEnd(end)]);
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let done = 0;
  for (const [start, end] of spans) {
    if (end <= done) continue; // inside a span already replaced
    out += text.slice(done, Math.max(start, done)) + (start >= done ? REDACTED : '');
    done = end;
  }
  return out + text.slice(done);
}

/** A string as the view spells it (a secret or a header name): the same lower case, with no escapes decoded. */
function plain(text: string): string {
  if (ASCII_ONLY.test(text)) return asciiFold(text);
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i += 1) units[i] = fold(text.charCodeAt(i));
  return stringOf(units, units.length);
}

/**
 * ASCII text folded at once: the units `fold` gives one at a time. Most texts are ASCII, and every call reads one.
 * One pass over its bytes through a table, whatever they are: `replaceAll(' ', '+')` after `toLowerCase` made 4 MiB
 * of spaces a string of four million pieces, 15 to 30 times slower than as many letters.
 */
function asciiFold(text: string): string {
  if (text.length < 64) return text.toLowerCase().replaceAll(' ', '+'); // a secret: a buffer costs more
  const bytes = Buffer.from(text, 'latin1');
  for (let at = 0; at < bytes.length; at += 1) bytes[at] = ASCII_FOLD[bytes[at]!]!;
  return bytes.toString('latin1');
}
const ASCII_FOLD = Uint8Array.from({ length: 128 }, (_, unit) => fold(unit));
const ASCII_ONLY = /^[^\x80-\uffff]*$/;
/** ASCII text in which no escape can start: its view is its fold, unit for unit. */
const PLAIN_ASCII = /^[^\\%&\x80-\uffff]*$/;

/**
 * A UTF-16 unit as the view spells it: its lower case when that is one unit (`İ`, whose lower case is two, stays as
 * it is), and a space as `+` (a URL's form encoding). Unit by unit, so that the view keeps one unit per unit.
 */
function fold(unit: number): number {
  if (unit < 0x80) return unit === 0x20 ? 0x2b : unit >= 0x41 && unit <= 0x5a ? unit + 0x20 : unit;
  let folded = FOLDED[unit]!;
  if (folded === 0) {
    const lower = String.fromCharCode(unit).toLowerCase();
    folded = FOLDED[unit] = lower.length === 1 ? lower.charCodeAt(0) : unit;
  }
  return folded;
}
/** The fold of each unit above ASCII, worked out on first use (0: not yet). */
const FOLDED = new Uint16Array(0x10000);

/** The first `length` units as one flat string, made a slice at a time (an argument list has a size limit). */
function stringOf(units: Uint16Array, length: number): string {
  const SLICE = 8192;
  const slices: string[] = [];
  for (let at = 0; at < length; at += SLICE) {
    slices.push(
      String.fromCharCode.apply(null, units.subarray(at, Math.min(length, at + SLICE)) as unknown as number[]),
    );
  }
  return slices.join('');
}

/**
 * A text read as plain units: escapes decoded, each unit folded. Made in one pass. A unit that is not the
 * original's own (a decoded escape, or what follows one) remembers where its source starts in the original; the
 * source of a decoded escape is the whole escape, and a character beyond U+FFFF from one escape is two units with
 * one source.
 */
class View {
  readonly text: string;
  /** Where the source of each unit starts in the original; undefined while the view maps unit to unit. */
  readonly #from: Int32Array | undefined;
  readonly #originalLength: number;

  constructor(original: string) {
    const n = original.length;
    this.#originalLength = n;
    if (PLAIN_ASCII.test(original)) {
      this.text = asciiFold(original);
      return;
    }
    const units = new Uint16Array(n); // escapes only shorten: never more units than the original has
    let from: Int32Array | undefined;
    let length = 0;
    const escape = new Escape();
    for (let i = 0; i < n;) {
      const end = escape.read(original, i);
      if (end === -1) {
        if (from) from[length] = i;
        units[length++] = fold(original.charCodeAt(i++));
        continue;
      }
      if (!from) {
        from = new Int32Array(n);
        for (let k = 0; k < length; k += 1) from[k] = k; // one to one so far
      }
      const point = escape.point;
      if (point > 0xffff) {
        from[length] = i;
        units[length++] = 0xd800 + ((point - 0x10000) >> 10);
        from[length] = i;
        units[length++] = 0xdc00 + ((point - 0x10000) & 0x3ff);
      } else {
        from[length] = i;
        units[length++] = fold(point);
      }
      i = end;
    }
    this.text = stringOf(units, length);
    this.#from = from;
  }

  /** Where the source of the view's unit at `index` starts in the original. */
  originalStart(index: number): number {
    return this.#from ? this.#from[index]! : index;
  }

  /** Where the source of the view's unit before `index` ends in the original: where the next source starts. */
  originalEnd(index: number): number {
    const from = this.#from;
    if (!from) return index;
    let next = index;
    while (next < this.text.length && from[next] === from[index - 1]) next += 1; // the second unit of a pair
    return next < this.text.length ? from[next]! : this.#originalLength;
  }
}

/** The value of the hex digit at `i`, or -1. */
function hexAt(text: string, i: number): number {
  const unit = text.charCodeAt(i); // NaN past the end
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  const lower = unit | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}
const digitAt = (text: string, i: number) => {
  const unit = text.charCodeAt(i);
  return unit >= 0x30 && unit <= 0x39 ? unit - 0x30 : -1;
};
/** The byte of a `%XX` at `i`, or -1. */
const byteAt = (text: string, i: number) => {
  if (text.charCodeAt(i) !== 0x25) return -1;
  const high = hexAt(text, i + 1);
  const low = hexAt(text, i + 2);
  return high === -1 || low === -1 ? -1 : high * 16 + low;
};

/** XML's named references, the characters a secret in an XML answer would be spelled with. */
const NAMED = new Map([
  ['&amp;', 0x26],
  ['&lt;', 0x3c],
  ['&gt;', 0x3e],
  ['&quot;', 0x22],
  ['&apos;', 0x27],
]);

/** Reads the escape that starts at a position, if one does: where it ends and the code point it spells. */
class Escape {
  point = 0;

  /** The end of the escape at `i` (its code point in `point`), or -1 when none starts there. */
  read(text: string, i: number): number {
    switch (text.charCodeAt(i)) {
      case 0x5c: // \
        return this.#backslash(text, i);
      case 0x25: // %
        return this.#percent(text, i);
      case 0x26: // &
        return this.#reference(text, i);
      default:
        return -1;
    }
  }

  /** `\uXXXX` (one UTF-16 unit, as JSON writes it), `\"`, `\\`, `\/`. */
  #backslash(text: string, i: number): number {
    const next = text[i + 1];
    if (next === '"' || next === '\\' || next === '/') return this.#found(next.charCodeAt(0), i + 2);
    if (next !== 'u' && next !== 'U') return -1;
    let point = 0;
    for (let k = i + 2; k < i + 6; k += 1) {
      const digit = hexAt(text, k);
      if (digit === -1) return -1;
      point = point * 16 + digit;
    }
    return this.#found(point, i + 6);
  }

  /** `%XX`: a whole UTF-8 sequence of them is one character; a byte that starts none is no escape. */
  #percent(text: string, i: number): number {
    const lead = byteAt(text, i);
    if (lead === -1) return -1;
    if (lead < 0x80) return this.#found(lead, i + 3);
    const length =
      lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xf0 && lead < 0xf5 ? 4 : 0;
    if (length === 0) return -1;
    let point = lead & (0xff >> (length + 1));
    for (let k = 1; k < length; k += 1) {
      const byte = byteAt(text, i + 3 * k);
      if (byte === -1 || (byte & 0xc0) !== 0x80) return -1;
      // The second byte's range rules out overlong forms, surrogates and points beyond U+10FFFF.
      if (
        k === 1 &&
        ((lead === 0xe0 && byte < 0xa0) ||
          (lead === 0xed && byte > 0x9f) ||
          (lead === 0xf0 && byte < 0x90) ||
          (lead === 0xf4 && byte > 0x8f))
      ) {
        return -1;
      }
      point = (point << 6) | (byte & 0x3f);
    }
    return this.#found(point, i + 3 * length);
  }

  /** `&#107;` and `&#x6B;` (the `;` may be left out, as HTML allows), and XML's named references. */
  #reference(text: string, i: number): number {
    if (text[i + 1] !== '#') {
      for (const [name, point] of NAMED) if (text.startsWith(name, i)) return this.#found(point, i + name.length);
      return -1;
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

  #found(point: number, end: number): number {
    this.point = point;
    return end;
  }
}

/** The pattern of a credential header's value, compiled once per set of names. */
const headerPatterns = new Map<string, RegExp>();
function headerValuePattern(headers: readonly string[]): RegExp | undefined {
  if (headers.length === 0) return undefined;
  const key = headers.join('\n');
  let pattern = headerPatterns.get(key);
  if (!pattern) {
    const names = headers.map(escapeRegExp);
    pattern = new RegExp(`(${names.join('|')})(["']?\\s*[:=]\\s*["']?)(?!\\[redacted\\])[^"'\\s,;}\\]]+`, 'gi');
    if (headerPatterns.size >= 64) headerPatterns.clear(); // a few sets are in use; never grow without bound
    headerPatterns.set(key, pattern);
  }
  return pattern;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
