import { nextTurn } from './next-turn.js';
import { DECODERS, decodeEscapes } from './redact/decoders.js';
import { fold, foldSecret, foldView, type Folded } from './redact/fold.js';
import { SpellingIndex } from './redact/search.js';
import { spellingsOf, type Spelling } from './redact/spellings.js';
import { rootView, type View } from './redact/view.js';

/**
 * Keeps secrets out of text we return or log: the configured ones, and the ones a call sent (its signature). Only
 * those are replaced, never anything because of what surrounds it (a header's name, a key word): an answer that holds
 * no secret is returned as it came. A secret is found however an upstream echoed it, by reading the text through
 * every decoding that may hide it, one to MAX_DEPTH layers deep (redact/decoders.ts): percent-encoding (`%252B` is
 * `+` after two), HTML and XML references, JSON and JavaScript escapes, quoted-printable, hex and hexdumps, base64 and
 * base64url at any alignment and wrapped, UTF-16, byte lists (`[99,115,…]`, `[99 115 …]`, octal), characters spaced
 * out; each view searched in any case, fullwidth forms as ASCII, without line breaks, zero-width characters and soft
 * hyphens (redact/fold.ts); and in each view the secret as it is, as its UTF-8 bytes, as hex, base64, base32, ASCII85
 * and Z85 at any offset of a longer blob, reversed and in ROT13 (redact/spellings.ts). What matched is cut from the
 * original text and `[redacted]` put in its place, never inside a JSON escape: a JSON string stays one.
 *
 * The rules:
 * - A secret of MIN_SECRET characters or more is looked for in every spelling. A shorter one is looked for only as
 *   it is (any case) in the text itself: in decoded bytes a few characters turn up by chance. Real credentials are
 *   far longer.
 * - At the start and at the end of the text (a few units of punctuation aside), MIN_PART characters or more of the
 *   end or of the start of a secret are redacted too: an excerpt cut in the middle of a secret leaves no part of it.
 *   In the middle of a text only whole secrets are.
 * - Cost is linear in the text, with no budget a text could use up: each view is one pass over the one it decodes
 *   and at most as long; a run (of hex, base64, numbers…) is decoded only when it is long enough to hold the
 *   shortest secret, so ordinary text makes no views; the spellings are found in one pass over each view that reads
 *   it at a stride (redact/search.ts), not one pass per spelling.
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  /** The spellings of the secrets of MIN_SECRET or more, indexed; made when first needed. */
  #index: SpellingIndex | undefined;
  /** The index this one's extends (the configured secrets', for a call's redactor), and the secrets added to it. */
  #base: Redactor | undefined;
  #long: string[] = [];
  #short: readonly string[] = [];
  /** The fewest UTF-8 bytes of a secret looked for in every spelling. */
  #min = Infinity;
  #breakerSet: ReadonlySet<number> | undefined;

  constructor(secrets: Iterable<string>) {
    this.add(secrets);
  }

  /** Knows these secrets too from now on (e.g. the signatures of a call). */
  add(secrets: Iterable<string>): void {
    const short = new Set(this.#short);
    for (const secret of secrets) {
      if (secret === '' || this.#secrets.has(secret)) continue;
      this.#secrets.add(secret);
      if (secret.length >= MIN_SECRET) {
        this.#long.push(secret);
        this.#min = Math.min(this.#min, Buffer.byteLength(secret, 'utf8'));
        this.#index = undefined;
      } else {
        short.add(fold(secret));
      }
    }
    this.#short = [...short].sort((a, b) => b.length - a.length);
    this.#breakerSet = undefined;
  }

  /**
   * A redactor that also knows these secrets (e.g. the ones one call sent); this one is left as it is. The spellings
   * of this one's secrets are not worked out again: the new ones are indexed beside them.
   */
  with(secrets: Iterable<string>): Redactor {
    const wider = new Redactor([]);
    wider.#base = this;
    for (const secret of this.#secrets) wider.#secrets.add(secret);
    wider.#short = this.#short;
    wider.#min = this.#min;
    wider.add(secrets);
    return wider;
  }

  redact(text: string): string {
    if (this.#nothingToFind()) return text;
    const spans: Span[] = [];
    this.#findIn(text, 0, text.length, spans);
    return spans.length > 0 ? withoutSpans(text, spans) : text;
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
    const spans: Span[] = [];
    const overlap = this.#overlap();
    const window = Math.max(WINDOW, 4 * overlap);
    for (let from = 0; from < text.length;) {
      const next = this.#quietCut(text, from + window);
      const to = next >= text.length ? text.length : this.#quietCut(text, next + overlap);
      this.#findIn(text, from, to, spans);
      from = next;
      if (from < text.length) await pause();
    }
    return spans.length > 0 ? withoutSpans(text, spans) : text;
  }

  #nothingToFind(): boolean {
    return this.#secrets.size === 0;
  }

  get #spellings(): SpellingIndex {
    if (!this.#index) {
      const base = this.#base ? this.#base.#spellings : undefined;
      const mine = this.#long.flatMap(spellingsOfCached);
      this.#index = new SpellingIndex(mine, base);
    }
    return this.#index;
  }

  /** The plain forms of every long secret, whose parts are looked for at the text's ends. */
  get #cuttable(): string[] {
    const own = this.#long.flatMap((s) => [foldSecret(s), foldSecret(Buffer.from(s, 'utf8').toString('latin1'))]);
    return [...new Set([...(this.#base ? this.#base.#cuttable : []), ...own])];
  }

  /** The spans of every secret found in the text's units [from, to), read as a text of its own. */
  #findIn(text: string, from: number, to: number, out: Span[]): void {
    const window = from === 0 && to === text.length ? text : text.slice(from, to);
    const long = this.#min !== Infinity;
    const views = long ? viewsOf(window, Math.max(MIN_SECRET, this.#min)) : [rootView(window)];
    const spans: Span[] = [];
    // Parts of a secret are looked for only where the window's start or end is the text's.
    const edges = { start: from === 0, end: to === text.length };
    const index = long ? this.#spellings : undefined;
    const cuttable = long && (edges.start || edges.end) ? this.#cuttable : [];
    // One folded copy at a time: a large answer's views and their copies together would hold many times its size.
    for (const view of views) {
      const folded = foldView(view.text);
      index?.find(folded.text, (spelling, at) => spans.push(spanOfMatch(view, folded, spelling, at)));
      for (const secret of cuttable) findCut(view, folded, secret, spans, window.length, edges);
      if (view.depth === 0) for (const secret of this.#short) findAll(view, folded, secret, spans);
    }
    for (const [start, end, wholeLines] of spans) out.push([start + from, end + from, wholeLines]);
  }

  /**
   * How far a spelling of a secret may reach in the text: its longest form, each unit of which is at most
   * UNIT_SPELLING units of the view below, through MAX_DEPTH views, and then JSON's own escapes (`\u0000`: six).
   */
  #overlap(): number {
    let longest = this.#min === Infinity ? 0 : this.#spellings.longest;
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

/** Units of text redacted between two turns of the event loop (a few milliseconds of work). */
export const WINDOW = 128 * 1024;
/**
 * The most units of a view one unit of the view it decodes can take (`%E2%82%AC` is nine for one; a hex byte with its
 * separator three; base64 four for three; `0377, ` six). References padded with zeros can be longer; they hold no
 * breaker, so no window is cut inside one.
 */
const UNIT_SPELLING = 10;
/** The most units JSON's escapes take for one (`\u0000`), a layer on top of MAX_DEPTH (see viewsOf). */
const JSON_ESCAPE_SPELLING = 6;
/** JSON's and XML's structure: no escape, hex, base64, quoted-printable or UTF-16 run goes through two of them. */
const BREAKERS = '"{}<>';

const REDACTED = '[redacted]';
/** Shorter secrets are looked for only as they are. */
export const MIN_SECRET = 8;
/** The shortest part of a secret redacted at the start or end of a text. */
export const MIN_PART = 8;
/** How many layers of encoding are read through. */
const MAX_DEPTH = 3;
/** Units of punctuation allowed between a cut secret and the text's start or end (`"…`, `...`). */
const EDGE = 4;

type Span = [start: number, end: number, wholeLines: boolean];

/** Most secrets (the configured keys) come back with every call: their spellings are worked out once. */
const spellingCache = new Map<string, Spelling[]>();
function spellingsOfCached(secret: string): Spelling[] {
  let known = spellingCache.get(secret);
  if (!known) {
    known = spellingsOf(secret);
    if (spellingCache.size >= 256) spellingCache.clear(); // the process's own keys, and one signature per call
    spellingCache.set(secret, known);
  }
  return known;
}

/**
 * The text and every view of it worth searching, breadth first. No budget: a view is made only of runs long enough
 * to hold a secret (`min` bytes), each view is at most as long as the one it reads, and there are at most MAX_DEPTH
 * layers.
 */
function viewsOf(text: string, min: number): View[] {
  const views = [rootView(text)];
  for (let at = 0; at < views.length; at += 1) {
    const view = views[at]!;
    if (view.depth >= MAX_DEPTH) continue;
    for (const decode of DECODERS) {
      const next = decode(view, min);
      if (!next || next.text.length === 0) continue;
      if (at === 0 && decode === decodeEscapes) {
        // The escapes of the text itself are a layer JSON adds (a message on the wire, an upstream's JSON answer,
        // whose strings are escaped once more than what they hold): they do not count as one of the MAX_DEPTH layers.
        // That reading holds every run the text does (no run of the other decoders holds an escape), with escapes
        // decoded: the text's own other readings would be its readings again.
        views.push({ ...next, depth: 0 });
        break;
      }
      views.push(next);
    }
  }
  return views;
}

/** Which ends of the text searched are the ends of the whole text (a window in the middle has neither). */
interface Edges {
  start: boolean;
  end: boolean;
}

/** The view's unit of a folded unit. */
const viewUnit = (folded: Folded, i: number) => (folded.at ? folded.at[i]! : i);

/** The original span of a folded view's units [from, to), whole lines where the view asks for them. */
function spanOf(view: View, folded: Folded, from: number, to: number): Span {
  const first = viewUnit(folded, from);
  const last = viewUnit(folded, to - 1);
  const start = view.start ? view.start[first]! : first;
  const end = view.end ? view.end[last]! : last + 1;
  return [start, end, view.wholeLines];
}

/** A spelling found at `at`, with the units on either side that share its bits (of its alphabet only). */
function spanOfMatch(view: View, folded: Folded, spelling: Spelling, at: number): Span {
  const { text } = folded;
  let from = at;
  let to = at + spelling.text.length;
  const around = spelling.around;
  if (around) {
    const inAlphabet = (i: number) => {
      const unit = text.charCodeAt(i);
      return unit < 128 && around[unit] === 1;
    };
    for (let k = 0; k < spelling.before && from > 0 && inAlphabet(from - 1); k += 1) from -= 1;
    for (let k = 0; k < spelling.after && to < text.length && inAlphabet(to); k += 1) to += 1;
  }
  return spanOf(view, folded, from, to);
}

function findAll(view: View, folded: Folded, needle: string, spans: Span[]): void {
  const { text } = folded;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    spans.push(spanOf(view, folded, at, at + needle.length));
  }
}

/**
 * The end of a secret at the view's start, or its start at the view's end, MIN_PART units or more, where the view's
 * start or end is (within EDGE units) the original text's.
 */
function findCut(
  view: View,
  folded: Folded,
  secret: string,
  spans: Span[],
  originalLength: number,
  edges: Edges,
): void {
  const { text } = folded;
  const n = text.length;
  const longest = Math.min(secret.length - 1, n);
  if (longest < MIN_PART) return;
  const startOf = (i: number) => (view.start ? view.start[viewUnit(folded, i)]! : viewUnit(folded, i));
  const endOf = (i: number) => (view.end ? view.end[viewUnit(folded, i)]! : viewUnit(folded, i) + 1);
  for (let skip = 0; edges.start && skip <= EDGE && skip < n; skip += 1) {
    if (startOf(skip) > EDGE) break;
    for (let k = Math.min(longest, n - skip); k >= MIN_PART; k -= 1) {
      if (text.startsWith(secret.slice(secret.length - k), skip)) {
        spans.push(spanOf(view, folded, skip, skip + k));
        break;
      }
    }
  }
  for (let skip = 0; edges.end && skip <= EDGE && skip < n; skip += 1) {
    if (endOf(n - 1 - skip) < originalLength - EDGE) break;
    for (let k = Math.min(longest, n - skip); k >= MIN_PART; k -= 1) {
      if (text.startsWith(secret.slice(0, k), n - skip - k)) {
        spans.push(spanOf(view, folded, n - skip - k, n - skip));
        break;
      }
    }
  }
}

/**
 * The original text with every span replaced; spans that overlap or touch become one. A span never ends or starts
 * inside a backslash escape (`\"`, `\u0041`): it takes the whole escape, so that a JSON string stays valid.
 */
function withoutSpans(text: string, spans: Span[]): string {
  const widened = spans.map(([start, end, wholeLines]): Span => {
    if (wholeLines) [start, end] = lineAround(text, start, end);
    return [escapeStart(text, start), escapeEnd(text, end), false];
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

/** Whether the unit at `at` is escaped: an odd number of backslashes right before it. */
function escaped(text: string, at: number): boolean {
  let count = 0;
  while (at - count - 1 >= 0 && text.charCodeAt(at - count - 1) === 0x5c) count += 1;
  return count % 2 === 1;
}

/** The longest a backslash escape is (`\u{10FFFF}`). */
const LONGEST_ESCAPE = 10;

/** The end of the backslash escape that starts at `at` (a backslash that is not itself escaped). */
function escapeLength(text: string, at: number): number {
  const next = text[at + 1];
  if (next === 'u' || next === 'U') {
    if (text[at + 2] === '{') {
      const close = text.indexOf('}', at + 3);
      return close !== -1 && close - at < LONGEST_ESCAPE ? close - at + 1 : 2;
    }
    return /^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6)) ? 6 : 2;
  }
  if (next === 'x' || next === 'X') return /^[0-9a-fA-F]{2}$/.test(text.slice(at + 2, at + 4)) ? 4 : 2;
  if (next !== undefined && next >= '0' && next <= '7') {
    let k = at + 2;
    while (k < at + 4 && text[k]! >= '0' && text[k]! <= '7') k += 1;
    return k - at;
  }
  return 2;
}

/** The escape around a position strictly inside it, as [start, end), or undefined. */
function escapeAround(text: string, at: number): [number, number] | undefined {
  for (let b = at - 1; b >= 0 && b >= at - LONGEST_ESCAPE; b -= 1) {
    if (text.charCodeAt(b) !== 0x5c || escaped(text, b)) continue;
    const end = b + escapeLength(text, b);
    return end > at ? [b, end] : undefined;
  }
  return undefined;
}
const escapeStart = (text: string, at: number) => escapeAround(text, at)?.[0] ?? at;
const escapeEnd = (text: string, at: number) => escapeAround(text, at)?.[1] ?? at;

/**
 * The lines of the original around [start, end): between line breaks, raw or escaped (`\n` in a JSON string), and
 * within the JSON string that holds them (an unescaped quote ends it).
 */
function lineAround(text: string, start: number, end: number): [number, number] {
  const breaks = (i: number) => {
    const unit = text.charCodeAt(i);
    return unit === 0x0a || unit === 0x0d || (unit === 0x22 && !escaped(text, i));
  };
  const escapedBreak = (i: number) =>
    text.charCodeAt(i) === 0x5c && !escaped(text, i) && (text[i + 1] === 'n' || text[i + 1] === 'r');
  let from = start;
  while (from > 0 && !breaks(from - 1) && !(from >= 2 && escapedBreak(from - 2))) from -= 1;
  let to = end;
  while (to < text.length && !breaks(to) && !escapedBreak(to)) to += 1;
  return [from, to];
}
