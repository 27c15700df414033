/**
 * The spellings a redactor looks through, as views of one text: each view is the text (or the parts of it that carry
 * an encoding) decoded one layer further, and remembers for each of its UTF-16 units which span of the original text
 * it came from. A secret is then looked for in each view as plain text: one canonical form per encoding, composed
 * (base64 of percent-encoding, hex of UTF-16, JSON of JSON...), instead of every encoding of every secret listed. The
 * decoders are in the files beside this one (decoders.ts lists them).
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
 * A decoder: the view one layer further, or undefined when there is nothing to decode. `min` is the fewest bytes a
 * run (of hex, base64, a byte list...) must hold to be decoded: the shortest secret looked for in every spelling
 * (a run any shorter cannot hold one); ordinary words are made of the same letters, and decoding them only costs.
 */
export type Decoder = (view: View, min: number) => View | undefined;

/** The fewest bytes of a run ever decoded (MIN_SECRET in redact.ts: shorter secrets are looked for only as is). */
export const MIN_BYTES = 8;

/**
 * Whether the characters [from, to) of a run repeat with a period of at most four (`dddd…`, `xxxx…`, `ABAB…`): such a
 * run decodes to bytes repeating with a period of at most three, which no secret is; filler of this kind is common in
 * large answers, and decoding it would only cost.
 */
export function repeats(text: string, from: number, to: number): boolean {
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
export const INITIAL_CAPACITY = 4096;

/** Builds a view from one it reads: each unit added carries the span of the parent's units it was made from. */
export class Builder {
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
   * A `dense` view (the text with its escapes decoded: about as long as the text) has its room at once.
   */
  constructor(parent: View, capacity: number, dense = false) {
    if (!dense) capacity = Math.min(capacity, INITIAL_CAPACITY);
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

/** The first `length` units as one flat string (read as UTF-16LE: native, and it keeps a lone surrogate as it is). */
export function stringOf(units: Uint16Array, length: number): string {
  return Buffer.from(units.buffer, units.byteOffset, 2 * length).toString('utf16le');
}

/** The value of the hex digit at `i`, or -1 (also past the end). */
export function hexAt(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  const lower = unit | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** A table of the ASCII units of `chars`, for runsOf. */
export function unitsOf(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const c of chars) table[c.charCodeAt(0)] = 1;
  return table;
}

/** Units allowed between a run and the view's start or end for it to count as at the edge (see redact.ts). */
const EDGE = 4;

/**
 * Calls `each` with every run of at least `length` units of `table` (start, end): what a decoder reads is found this
 * way at little cost, since ordinary text holds runs of a few units only. The text is read at a stride of `length`,
 * and backwards from there only as far as the run goes: a unit outside the table rules out the units before it.
 * `each` returns where to go on from (at least the run's end). A shorter run at the view's start or end (within EDGE
 * units, at least `edgeLength`) is passed too, with `edge` set: an excerpt may have cut a longer one there.
 */
export function forEachRun(
  text: string,
  table: Uint8Array,
  length: number,
  edgeLength: number,
  each: (start: number, end: number, edge: boolean) => number,
): void {
  const n = text.length;
  const inTable = (i: number) => {
    const unit = text.charCodeAt(i);
    return unit < 128 && table[unit] === 1;
  };
  // The runs at the edges, when they are too short for the stride below.
  let first = 0;
  while (first < Math.min(n, EDGE) && !inTable(first)) first += 1;
  let firstEnd = first;
  while (firstEnd < n && inTable(firstEnd)) firstEnd += 1;
  const firstIsShort = firstEnd - first >= edgeLength && firstEnd - first < length;
  let last = n;
  while (last > Math.max(0, n - EDGE) && !inTable(last - 1)) last -= 1;
  let lastStart = last;
  while (lastStart > 0 && inTable(lastStart - 1)) lastStart -= 1;
  const lastIsShort = lastStart > first && last - lastStart >= edgeLength && last - lastStart < length;
  if (firstIsShort) each(first, firstEnd, true);

  let i = 0;
  while (i + length <= n) {
    const probe = i + length - 1;
    if (!inTable(probe)) {
      i = probe + 1;
      continue;
    }
    let back = probe - 1;
    while (back >= i && inTable(back)) back -= 1;
    if (back >= i) {
      i = back + 1;
      continue;
    }
    let end = probe + 1;
    while (end < n && inTable(end)) end += 1;
    i = Math.max(end, each(i, end, false));
  }
  if (lastIsShort) each(lastStart, last, true);
}
