import { nextTurn } from './next-turn.js';
import { BREAK, DECODERS, decodeEscapes, rootView, stringOf, type View } from './redact-views.js';

/**
 * Keeps secrets out of text we return or log. A secret is found however an upstream echoed it, by reading the text
 * through every decoding that may hide it, one to MAX_DEPTH layers deep (redact-views.ts): percent-encoding (`%252B`
 * is `+` after two), HTML and XML references (numeric and every HTML5 name of an ASCII character), JSON and JavaScript
 * escapes (`\u0041`, `\x41`, `\101`, JSON inside JSON), quoted-printable, hex and hexdumps, base64 and base64url at any
 * alignment and wrapped, UTF-16; and, in each of those views, as is, in any case, as hex of its UTF-8 bytes, and as
 * base64 of them at any offset of a longer blob glued to other text. What matched is cut from the original text and
 * `[redacted]` put in its place; the value after a credential header's name (`x-…-signature-v2: …`) is replaced
 * whatever it is.
 *
 * The rules:
 * - A secret of MIN_SECRET characters or more is looked for in every spelling. A shorter one is looked for only as
 *   it is (any case) in the text itself: in decoded bytes a few characters turn up by chance. Real credentials are
 *   far longer.
 * - At the start and at the end of the text (a few units of punctuation aside), MIN_PART characters or more of the
 *   end or of the start of a secret are redacted too: an excerpt cut in the middle of a secret leaves no part of it.
 *   In the middle of a text only whole secrets are.
 * - Cost is linear in the text: each view is one pass over the one it decodes and at most as long; views are made
 *   only where there is something to decode, and all of them together hold at most VIEW_BUDGET units per unit of the
 *   text (past that, no further views are made).
 */
export class Redactor {
  readonly #secrets: Set<string>;
  readonly #headers: readonly string[];
  #long: readonly Needles[];
  #short: readonly string[];
  readonly #headerValues: RegExp | undefined;
  /** The header names as the views spell them. */
  readonly #headerNames: readonly string[];
  #breakerSet: ReadonlySet<number> | undefined;

  constructor(secrets: Iterable<string>, credentialHeaders: Iterable<string> = []) {
    this.#secrets = new Set();
    this.#long = [];
    this.#short = [];
    this.#headers = [...new Set(credentialHeaders)];
    this.#headerValues = headerValuePattern(this.#headers);
    this.#headerNames = this.#headers.map(fold);
    this.add(secrets);
  }

  /** Knows these secrets too from now on (e.g. the signatures of a call). */
  add(secrets: Iterable<string>): void {
    const long = [...this.#long];
    const short = new Set(this.#short);
    for (const secret of secrets) {
      if (secret === '' || this.#secrets.has(secret)) continue;
      this.#secrets.add(secret);
      if (secret.length >= MIN_SECRET) long.push(needlesOf(secret));
      else short.add(fold(secret));
    }
    this.#long = long;
    this.#short = [...short].sort((a, b) => b.length - a.length);
    this.#breakerSet = undefined;
  }

  /** A redactor that also knows these secrets (e.g. the ones one call sent); this one is left as it is. */
  with(secrets: Iterable<string>, credentialHeaders: Iterable<string> = []): Redactor {
    return new Redactor([...this.#secrets, ...secrets], [...this.#headers, ...credentialHeaders]);
  }

  redact(text: string): string {
    if (this.#nothingToFind()) return text;
    const found = this.#found();
    this.#findIn(text, 0, text.length, found);
    return this.#finish(text, found);
  }

  /**
   * The same redaction of a text of any size, with the event loop free between windows of about WINDOW units (`pause`
   * is awaited between them): a 4 MiB answer must not hold up every other client. Windows start and end only between
   * two characters no encoding runs through (a quiet cut: `"{`, `><`…), where every view of a window is the view of
   * the whole text there; and each one reaches OVERLAP units into the next, so that a spelling that spans a cut lies
   * whole in one window.
   */
  async redactInWindows(text: string, pause: () => Promise<void> = nextTurn): Promise<string> {
    if (this.#nothingToFind()) return text;
    const found = this.#found();
    const overlap = this.#overlap();
    const window = Math.max(WINDOW, 4 * overlap);
    for (let from = 0; from < text.length;) {
      const next = this.#quietCut(text, from + window);
      const to = next >= text.length ? text.length : this.#quietCut(text, next + overlap);
      this.#findIn(text, from, to, found);
      from = next;
      if (from < text.length) await pause();
    }
    return this.#finish(text, found);
  }

  #nothingToFind(): boolean {
    return this.#long.length === 0 && this.#short.length === 0 && !this.#headerValues;
  }

  #found(): Found {
    return { spans: [], namesHeader: false };
  }

  /** The spans of every secret found in the text's units [from, to), read as a text of its own. */
  #findIn(text: string, from: number, to: number, found: Found): void {
    const window = from === 0 && to === text.length ? text : text.slice(from, to);
    const views = this.#long.length > 0 ? viewsOf(window) : [rootView(window)];
    const spans: Span[] = [];
    // Parts of a secret are looked for only where the window's start or end is the text's.
    const edges = { start: from === 0, end: to === text.length };
    // One folded copy at a time: a large answer's views and their copies together would hold many times its size.
    for (const view of views) {
      const folded = fold(view.text);
      for (const needles of this.#long) findNeedles(view, folded, needles, spans, window.length, edges);
      if (view.depth === 0) for (const secret of this.#short) findAll(view, folded, secret, 0, 0, spans);
      if (this.#headerValues && view.depth <= 1 && !found.namesHeader) {
        found.namesHeader = this.#headerNames.some((name) => folded.includes(name));
      }
    }
    for (const [start, end, wholeLines] of spans) found.spans.push([start + from, end + from, wholeLines]);
  }

  #finish(text: string, { spans, namesHeader }: Found): string {
    let out = spans.length > 0 ? withoutSpans(text, spans) : text;
    // The pattern scans the whole text; most texts name no credential header at all.
    if (this.#headerValues && namesHeader) out = out.replace(this.#headerValues, '$1$2[redacted]');
    return out;
  }

  /**
   * How far a spelling of a secret may reach in the text: its longest form, each unit of which is at most
   * UNIT_SPELLING units of the view below, through MAX_DEPTH views, and then JSON's own escapes (`\u0000`: six).
   */
  #overlap(): number {
    let longest = 0;
    for (const needles of this.#long) for (const form of needles.forms) longest = Math.max(longest, form.text.length);
    for (const secret of this.#short) longest = Math.max(longest, secret.length);
    return (longest + 2) * UNIT_SPELLING ** MAX_DEPTH * JSON_ESCAPE_SPELLING;
  }

  /** The first quiet cut at or after `at` (the text's end if there is none): two breakers side by side. */
  #quietCut(text: string, at: number): number {
    const breakers = this.#breakers;
    let before = at > 0 && at <= text.length ? breakers.has(text.charCodeAt(at - 1)) : false;
    for (let i = Math.max(at, 1); i < text.length; i += 1) {
      const breaker = breakers.has(text.charCodeAt(i));
      if (before && breaker) return i;
      before = breaker;
    }
    return text.length;
  }

  /**
   * Characters no decoder reads as part of an escape or a run (JSON's and XML's structure), less any a secret holds:
   * no spelling of a secret then runs through two of them side by side.
   */
  get #breakers(): ReadonlySet<number> {
    if (!this.#breakerSet) {
      const inSecrets = new Set([...this.#secrets].flatMap((s) => [...fold(s)].map((c) => c.charCodeAt(0))));
      this.#breakerSet = new Set([...BREAKERS].map((c) => c.charCodeAt(0)).filter((c) => !inSecrets.has(c)));
    }
    return this.#breakerSet;
  }
}

/** What the windows of one text found. */
interface Found {
  spans: Span[];
  namesHeader: boolean;
}

/** Units of text redacted between two turns of the event loop (a few milliseconds of work). */
export const WINDOW = 128 * 1024;
/**
 * The most units of a view one unit of the view it decodes can take (`%E2%82%AC` is nine for one; a hex byte with its
 * separator three; base64 four for three). References padded with zeros can be longer; they hold no breaker, so no
 * window is cut inside one.
 */
const UNIT_SPELLING = 10;
/** The most units JSON's escapes take for one (`\u0000`), a layer on top of MAX_DEPTH (see viewsOf). */
const JSON_ESCAPE_SPELLING = 6;
/** JSON's and XML's structure: no escape, hex, base64, quoted-printable or UTF-16 run goes through two of them. */
const BREAKERS = '"{}[]<>';

const REDACTED = '[redacted]';
/** Shorter secrets are looked for only as they are. */
export const MIN_SECRET = 8;
/** The shortest part of a secret redacted at the start or end of a text. */
export const MIN_PART = 8;
/** How many layers of encoding are read through. */
export const MAX_DEPTH = 3;
/** All views together hold at most this many units per unit of the text. */
const VIEW_BUDGET = 12;
/** Units of punctuation allowed between a cut secret and the text's start or end (`"…`, `...`). */
const EDGE = 4;

type Span = [start: number, end: number, wholeLines: boolean];

/** The text and every view of it worth searching, breadth first. */
function viewsOf(text: string): View[] {
  const views = [rootView(text)];
  let budget = VIEW_BUDGET * text.length + 4096;
  for (let at = 0; at < views.length; at += 1) {
    const view = views[at]!;
    if (view.depth >= MAX_DEPTH) continue;
    for (const decode of DECODERS) {
      if (budget <= 0) return views;
      const next = decode(view);
      if (!next || next.text.length === 0) continue;
      budget -= next.text.length;
      // The escapes of the text itself are a layer JSON adds (a message on the wire, an upstream's JSON answer, whose
      // strings are escaped once more than what they hold): they do not count as one of the MAX_DEPTH layers.
      views.push(at === 0 && decode === decodeEscapes ? { ...next, depth: 0 } : next);
    }
  }
  return views;
}

/**
 * A secret's spellings in a view's folded form: as text, as its UTF-8 bytes (for views of bytes, when it is not
 * ASCII), as hex of those bytes, and as base64 at each byte offset with the characters around that share its bits.
 */
interface Needles {
  readonly forms: readonly Needle[];
  /** The forms a cut may leave part of (the plain ones). */
  readonly cuttable: readonly string[];
}
interface Needle {
  readonly text: string;
  readonly before: number;
  readonly after: number;
}

/** Most secrets (the configured keys) come back with every call: their spellings are worked out once. */
const needleCache = new Map<string, Needles>();
function needlesOf(secret: string): Needles {
  let known = needleCache.get(secret);
  if (!known) {
    const bytes = Buffer.from(secret, 'utf8');
    const plain = fold(secret);
    const asBytes = fold(bytes.toString('latin1'));
    const forms: Needle[] = [
      { text: plain, before: 0, after: 0 },
      { text: asBytes, before: 0, after: 0 },
      { text: bytes.toString('hex'), before: 0, after: 0 },
      ...base64Needles(bytes),
    ];
    known = { forms: unique(forms), cuttable: [...new Set([plain, asBytes])] };
    if (needleCache.size >= 256) needleCache.clear(); // the process's own keys, and one signature per call
    needleCache.set(secret, known);
  }
  return known;
}

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
    const around = { before: startBit % 6 === 0 ? 0 : 1, after: endBit % 6 === 0 ? 0 : 1 };
    out.push({ text: fold(url), ...around }, { text: fold(url.replaceAll('-', '+').replaceAll('_', '/')), ...around });
  }
  return out;
}

function unique(list: readonly Needle[]): Needle[] {
  const byText = new Map<string, Needle>();
  for (const needle of list) {
    const seen = byText.get(needle.text);
    byText.set(
      needle.text,
      seen
        ? { text: needle.text, before: Math.max(seen.before, needle.before), after: Math.max(seen.after, needle.after) }
        : needle,
    );
  }
  return [...byText.values()];
}

/** Which ends of the text searched are the ends of the whole text (a window in the middle has neither). */
interface Edges {
  start: boolean;
  end: boolean;
}

/** Every occurrence of every spelling of one secret in a view, and the parts of it cut at the text's ends. */
function findNeedles(
  view: View,
  folded: string,
  needles: Needles,
  spans: Span[],
  originalLength: number,
  edges: Edges,
): void {
  for (const { text, before, after } of needles.forms) findAll(view, folded, text, before, after, spans);
  for (const secret of needles.cuttable) findCut(view, folded, secret, spans, originalLength, edges);
}

function findAll(view: View, folded: string, needle: string, before: number, after: number, spans: Span[]): void {
  for (let at = folded.indexOf(needle); at !== -1; at = folded.indexOf(needle, at + 1)) {
    spans.push(spanOf(view, Math.max(0, at - before), Math.min(folded.length, at + needle.length + after)));
  }
}

/**
 * The end of a secret at the view's start, or its start at the view's end, MIN_PART units or more, where the view's
 * start or end is (within EDGE units) the original text's.
 */
function findCut(
  view: View,
  folded: string,
  secret: string,
  spans: Span[],
  originalLength: number,
  edges: Edges,
): void {
  const n = folded.length;
  const longest = Math.min(secret.length - 1, n);
  if (longest < MIN_PART) return;
  const startOf = (i: number) => (view.start ? view.start[i]! : i);
  const endOf = (i: number) => (view.end ? view.end[i]! : i + 1);
  for (let skip = 0; edges.start && skip <= EDGE && skip < n; skip += 1) {
    if (startOf(skip) > EDGE) break;
    for (let k = Math.min(longest, n - skip); k >= MIN_PART; k -= 1) {
      if (folded.startsWith(secret.slice(secret.length - k), skip)) {
        spans.push(spanOf(view, skip, skip + k));
        break;
      }
    }
  }
  for (let skip = 0; edges.end && skip <= EDGE && skip < n; skip += 1) {
    if (endOf(n - 1 - skip) < originalLength - EDGE) break;
    for (let k = Math.min(longest, n - skip); k >= MIN_PART; k -= 1) {
      if (folded.startsWith(secret.slice(0, k), n - skip - k)) {
        spans.push(spanOf(view, n - skip - k, n - skip));
        break;
      }
    }
  }
}

/** The original span of a view's units [from, to), whole lines where the view asks for them. */
function spanOf(view: View, from: number, to: number): Span {
  const start = view.start ? view.start[from]! : from;
  const end = view.end ? view.end[to - 1]! : to;
  return [start, end, view.wholeLines];
}

/** The original text with every span replaced; spans that overlap or touch become one. */
function withoutSpans(text: string, spans: Span[]): string {
  const widened = spans.map(([start, end, wholeLines]): Span => {
    if (!wholeLines) return [start, end, false];
    const lineEnd = text.indexOf('\n', end);
    return [text.lastIndexOf('\n', start - 1) + 1, lineEnd === -1 ? text.length : lineEnd, false];
  });
  widened.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let done = 0;
  for (const [start, end] of widened) {
    if (end <= done) continue; // inside a span already replaced
    out += text.slice(done, Math.max(start, done)) + (start >= done ? REDACTED : '');
    done = end;
  }
  return out + text.slice(done);
}

/**
 * A text as the views are searched: each UTF-16 unit in its lower case when that is one unit (`İ`, whose lower case
 * is two, stays as it is), a space as `+` (a URL's form encoding). Unit for unit, so that offsets stay those of the
 * view.
 */
export function fold(text: string): string {
  if (ASCII_ONLY.test(text)) return asciiFold(text);
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    const folded = FOLDED[unit]!;
    units[i] = folded === 0 ? foldUnit(unit) : folded;
  }
  return stringOf(units, units.length);
}

/**
 * ASCII text folded at once. One pass over its bytes through a table, whatever they are: `replaceAll(' ', '+')` after
 * `toLowerCase` made 4 MiB of spaces a string of four million pieces, 15 to 30 times slower than as many letters.
 */
function asciiFold(text: string): string {
  if (text.length < 64) return text.toLowerCase().replaceAll(' ', '+'); // a secret: a buffer costs more
  const bytes = Buffer.from(text, 'latin1');
  for (let at = 0; at < bytes.length; at += 1) bytes[at] = ASCII_FOLD[bytes[at]!]!;
  return bytes.toString('latin1');
}
const ASCII_ONLY = /^[^\x80-\uffff]*$/;

/** The fold of one unit, remembered (U+0000 folds to itself, and is worked out again each time: it is cheap). */
function foldUnit(unit: number): number {
  let folded: number;
  if (unit < 0x80) folded = unit === 0x20 ? 0x2b : unit >= 0x41 && unit <= 0x5a ? unit + 0x20 : unit;
  else if (unit === BREAK) folded = unit;
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
