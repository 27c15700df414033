import { envName } from '../config/index.js';
import { withReplacements } from './string-cuts.js';

/** Where a list of the answer was shortened, for the note that says what was left out. */
export interface Shortened {
  path: string;
  shown: number;
  total: number;
}

/**
 * The note of a result shortened to fit SVC_MAX_RESULT_BYTES: the limit, what was left out (`left`, e.g. "x shows 3
 * of 9 items") and how to get the rest (`how`, a sentence). One wording for every tool.
 */
export const shortenedNote = (maxBytes: number, left: string, how: string) =>
  `Shortened to fit ${envName('SVC_MAX_RESULT_BYTES')} (${maxBytes} bytes, about ${Math.round(maxBytes / 4)} tokens): ${left}. ${how}`;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** A list that may be cut: not inside another list's items (cutting the outer one is what shortens those). */
interface List {
  array: readonly unknown[];
  /** The keys from the answer's root to the list. */
  keys: readonly string[];
  /** Bytes of each item as JSON. */
  items: number[];
  size: number;
}

/** What an answer takes as JSON, and its lists with the size of each item. */
export interface Measured {
  size: number;
  lists: List[];
}

/** Bytes of list items measured between two turns of the event loop (a few milliseconds of JSON.stringify). */
const BYTES_PER_TURN = 256 * 1024;

/**
 * The bytes of a JSON value as JSON, and of each item of its lists, every item written once (`pause` is awaited every
 * BYTES_PER_TURN bytes, so that a list of 100,000 items leaves the event loop free between slices). The rest of the
 * value, its lists written as `[]`, is written once more.
 */
export async function measure(value: unknown, pause: () => Promise<void>): Promise<Measured> {
  const lists: List[] = [];
  collect(value, [], lists);
  let written = 0;
  for (const list of lists) {
    for (const item of list.array) {
      const size = bytes(JSON.stringify(item ?? null));
      list.items.push(size);
      list.size += size;
      written += size;
      if (written >= BYTES_PER_TURN) {
        written = 0;
        await pause();
      }
    }
    list.size += Math.max(0, list.array.length - 1); // the commas ("[" and "]" are in the rest)
  }
  const arrays = new Set<unknown>(lists.map((l) => l.array));
  const rest = JSON.stringify(value, (_, v: unknown) => (arrays.has(v) ? [] : v));
  // Each list is `[]` in the rest already.
  return { size: bytes(rest) + lists.reduce((sum, l) => sum + l.size - 2, 0), lists };
}

/**
 * The JSON value with its longest lists cut until it takes at most `maxBytes` as JSON: a way to shorten an
 * answer that keeps it valid against its schema and says plainly what is missing. The largest list loses items from
 * its end, then the next largest, until the answer fits. Undefined when no list is left to cut. Pure: the value is
 * not changed; what holds a cut list is copied, everything else shared. Linear in the answer: every item is measured
 * once. `partial`: the lists cut as far as they help, even when the answer still does not fit (strings are cut next).
 */
export function shortenToFit(
  value: unknown,
  { size, lists }: Measured,
  maxBytes: number,
  partial = false,
): { value: unknown; shortened: Shortened[] } | undefined {
  let excess = size - maxBytes;
  const shortened: Shortened[] = [];
  const cut = new Map<List, number>();
  for (const list of [...lists].sort((a, b) => b.size - a.size)) {
    if (excess <= 0) break;
    const total = list.array.length;
    let kept = total;
    // [a,b,c] is 2 + a + b + c + 2 commas: an item leaves with its comma, the last one without.
    while (kept > 0 && excess > 0) {
      kept -= 1;
      excess -= list.items[kept]! + (kept > 0 ? 1 : 0);
    }
    cut.set(list, kept);
    shortened.push({ path: list.keys.join('.') || '(the answer)', shown: kept, total });
  }
  if (partial) return { value: withCuts(value, cut), shortened };
  if (excess > 0) return undefined;
  const out = withCuts(value, cut);
  if (bytes(JSON.stringify(out)) > maxBytes) return undefined;
  return { value: out, shortened };
}

/** `root` with each list cut to the items it keeps. */
const withCuts = (root: unknown, cut: ReadonlyMap<List, number>) =>
  withReplacements(
    root,
    [...cut].map(([list, kept]) => ({ keys: list.keys, value: list.array.slice(0, kept) })),
  );

function collect(node: unknown, keys: readonly string[], into: List[]): void {
  if (Array.isArray(node)) {
    if (node.length > 0) into.push({ array: node, keys, items: [], size: 2 });
  } else if (node !== null && typeof node === 'object') {
    for (const [key, child] of Object.entries(node)) collect(child, [...keys, key], into);
  }
}
