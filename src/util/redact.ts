/**
 * Keeps secrets out of text we return or log. A secret is found however an upstream echoed it: as is, in any case,
 * JSON-escaped (`\"`, `\\`, `\/` or `\uXXXX`, mixed), URL-encoded (`%XX`, `+` for a space), or as base64; and of
 * any length. The value after a credential header's name (`x-…-signature-v2: …`) is replaced whatever it is.
 *
 * How: the text is read once into a plain, lower-case view (escapes decoded) that remembers where each part came
 * from; each secret is looked up there with indexOf, and what matched is cut from the original. No regular
 * expression is built from the secrets: one that matches every spelling of a secret takes milliseconds to compile,
 * and every call has secrets of its own (its signature).
 */
export class Redactor {
  readonly #secrets: readonly string[];
  readonly #headers: readonly string[];
  /** Every spelling of every secret in the view's form, longest first. */
  readonly #needles: readonly string[];
  readonly #headerValues: RegExp | undefined;
  /** The header names as the view spells them. */
  readonly #headerNames: readonly string[];

  constructor(secrets: Iterable<string>, credentialHeaders: Iterable<string> = []) {
    this.#secrets = [...new Set(secrets)].filter((s) => s !== '');
    this.#headers = [...new Set(credentialHeaders)];
    this.#needles = [...new Set(this.#secrets.flatMap(needles))].sort((a, b) => b.length - a.length);
    this.#headerValues = headerValuePattern(this.#headers);
    this.#headerNames = this.#headers.map(plain);
  }

  redact(text: string): string {
    if (this.#needles.length === 0 && !this.#headerValues) return text;
    const view = viewOf(text);
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

/** A secret as the view spells it, and its base64 and base64url (an upstream may echo a decoded header). */
function needles(secret: string): readonly string[] {
  let known = needleCache.get(secret);
  if (!known) {
    const base64url = Buffer.from(secret, 'utf8').toString('base64url');
    const base64 = base64url.replaceAll('-', '+').replaceAll('_', '/'); // unpadded, as base64url is
    known = [secret, base64, base64url].map(plain);
    if (needleCache.size >= 256) needleCache.clear(); // the process's own keys, and one signature per call
    needleCache.set(secret, known);
  }
  return known;
}
/** Most secrets (the configured keys) come back with every call: their spellings are worked out once. */
const needleCache = new Map<string, readonly string[]>();

/** Lower case, and a space as `+` (a URL's form encoding); the view and the needles alike. */
function plain(text: string): string {
  return text.toLowerCase().replaceAll(' ', '+');
}

/** The text as the needles are spelled, and where each of its characters came from. */
interface View {
  readonly text: string;
  originalStart(index: number): number;
  originalEnd(index: number): number;
}

/** Most texts hold no escape and no character whose lower case is longer: their view maps one to one. */
function viewOf(text: string): View {
  if (!text.includes('\\') && !text.includes('%')) {
    const lower = plain(text);
    if (lower.length === text.length) return { text: lower, originalStart: (i) => i, originalEnd: (i) => i };
  }
  return new PlainView(text);
}

/** The original text with every occurrence of a needle in its view replaced. */
function withoutNeedles(text: string, view: View, needleList: readonly string[]): string {
  const spans: [number, number][] = [];
  for (const needle of needleList) {
    for (let at = view.text.indexOf(needle); at !== -1; at = view.text.indexOf(needle, at + 1)) {
      spans.push([view.originalStart(at), view.originalEnd(at + needle.length)]);
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

/** `\uXXXX`, `\"`, `\\`, `\/`, and runs of `%XX`. */
const ESCAPES = /\\[uU][0-9a-fA-F]{4}|\\["\\/]|(?:%[0-9a-fA-F]{2})+/g;

/**
 * A text read as plain characters: escapes decoded, lower case, a space as `+`. It is made of pieces, each a
 * stretch of the view and the stretch of the original it came from: a plain stretch maps character by character,
 * a decoded escape as a whole.
 */
class PlainView implements View {
  readonly text: string;
  readonly #view: number[] = [];
  readonly #original: number[] = [];
  readonly #originalLength: number[] = [];
  /** The piece maps one to one (the original, lower-cased); otherwise it is one decoded escape. */
  readonly #oneToOne: boolean[] = [];
  #viewLength = 0;
  #parts: string[] = [];

  constructor(original: string) {
    let at = 0;
    for (const match of original.matchAll(ESCAPES)) {
      this.#addPlain(original.slice(at, match.index), at);
      this.#addEscape(match[0], match.index);
      at = match.index + match[0].length;
    }
    this.#addPlain(original.slice(at), at);
    this.text = this.#parts.join('');
    this.#parts = [];
  }

  /** Where the view's character at `index` starts in the original. */
  originalStart(index: number): number {
    const piece = this.#pieceAt(index);
    return this.#oneToOne[piece] ? this.#original[piece]! + (index - this.#view[piece]!) : this.#original[piece]!;
  }

  /** Where the view's stretch ending before `index` ends in the original. */
  originalEnd(index: number): number {
    const piece = this.#pieceAt(index - 1);
    return this.#oneToOne[piece]
      ? this.#original[piece]! + (index - this.#view[piece]!)
      : this.#original[piece]! + this.#originalLength[piece]!;
  }

  /** The last piece that starts at or before `index` (binary search). */
  #pieceAt(index: number): number {
    let low = 0;
    let high = this.#view.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.#view[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  #add(viewText: string, original: number, originalLength: number, oneToOne: boolean): void {
    if (viewText === '' && originalLength === 0) return;
    this.#view.push(this.#viewLength);
    this.#original.push(original);
    this.#originalLength.push(originalLength);
    this.#oneToOne.push(oneToOne);
    this.#parts.push(viewText);
    this.#viewLength += viewText.length;
  }

  #addPlain(text: string, at: number): void {
    const lower = plain(text);
    if (lower.length === text.length) return this.#add(lower, at, text.length, true);
    // A character whose lower case is longer (`İ`): each character its own piece.
    let offset = at;
    for (const char of text) {
      this.#add(plain(char), offset, char.length, false);
      offset += char.length;
    }
  }

  #addEscape(escape: string, at: number): void {
    if (/^\\[uU]/.test(escape)) return this.#add(plain(String.fromCharCode(parseInt(escape.slice(2), 16))), at, escape.length, false);
    if (escape.startsWith('\\')) return this.#add(escape[1]!, at, 2, false);
    // %XX...: each UTF-8 sequence is one character; a byte that starts none stays as it was written.
    const bytes = Buffer.from(escape.replaceAll('%', ''), 'hex');
    let i = 0;
    while (i < bytes.length) {
      const length = utf8SequenceLength(bytes, i);
      if (length === 0) {
        this.#addPlain(escape.slice(i * 3, i * 3 + 3), at + i * 3);
        i += 1;
      } else {
        this.#add(plain(bytes.toString('utf8', i, i + length)), at + i * 3, length * 3, false);
        i += length;
      }
    }
  }
}

/** The length of the valid UTF-8 sequence starting at `i`, or 0. */
function utf8SequenceLength(bytes: Buffer, i: number): number {
  const lead = bytes[i]!;
  const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xf0 && lead < 0xf5 ? 4 : 0;
  if (length === 0 || i + length > bytes.length) return 0;
  for (let k = 1; k < length; k += 1) if ((bytes[i + k]! & 0xc0) !== 0x80) return 0;
  const decoded = bytes.toString('utf8', i, i + length);
  return decoded.includes('\ufffd') ? 0 : length;
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
