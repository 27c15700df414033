/**
 * Every spelling of every secret found in one pass over a folded view, without a pass per spelling: every occurrence
 * of a spelling of `shortest` units or more covers a position that is a multiple of STEP = shortest - GRAM + 1, and the
 * GRAM units there are the spelling's own at an offset below STEP. So the view is read only at those positions; the
 * GRAM units read there are looked up in a table of each spelling's first STEP grams, and a spelling is compared
 * whole only where one of them is. Ordinary text rarely holds one: the cost is about the text's length / STEP.
 */
import type { Spelling } from './spellings.js';

const GRAM = 4;
const BITS = 16;

interface Entry {
  readonly spelling: Spelling;
  readonly offset: number;
}

export class SpellingIndex {
  /** The spellings of this index and of the one it extends. */
  readonly spellings: readonly Spelling[];
  /** The longest of them, in units. */
  readonly longest: number;
  readonly #step: number;
  readonly #tables: readonly Table[];

  /** An index of these spellings; with `base`, of its spellings too (one call's signature beside the keys). */
  constructor(spellings: readonly Spelling[], base?: SpellingIndex) {
    const table: Table = { seen: new Uint8Array(1 << BITS), entries: new Map() };
    const shortest = Math.min(...spellings.map((s) => s.text.length));
    const step = Math.max(1, shortest - GRAM + 1);
    for (const spelling of spellings) {
      for (let offset = 0; offset < step; offset += 1) {
        const key = gramAt(spelling.text, offset);
        table.seen[slot(key)] = 1;
        const list = table.entries.get(key);
        if (list) list.push({ spelling, offset });
        else table.entries.set(key, [{ spelling, offset }]);
      }
    }
    // A step no longer than either table's: each spelling is then read at one of the offsets its table holds.
    this.#step = base ? Math.min(step, base.#step) : step;
    const below = base ? base.#tables : [];
    this.#tables = spellings.length > 0 ? [table, ...below] : below;
    this.spellings = [...spellings, ...(base?.spellings ?? [])];
    this.longest = Math.max(0, ...spellings.map((s) => s.text.length), base?.longest ?? 0);
  }

  /** Each occurrence of a spelling in `folded`, in no particular order. */
  find(folded: string, found: (spelling: Spelling, at: number) => void): void {
    const step = this.#step;
    const last = folded.length - GRAM;
    for (const { seen, entries } of this.#tables) {
      for (let s = 0; s <= last; s += step) {
        const key = gramAt(folded, s);
        if (seen[slot(key)] === 0) continue;
        const list = entries.get(key);
        if (!list) continue;
        for (const { spelling, offset } of list) {
          const at = s - offset;
          if (at >= 0 && folded.startsWith(spelling.text, at)) found(spelling, at);
        }
      }
    }
  }
}

interface Table {
  readonly seen: Uint8Array;
  readonly entries: Map<number, Entry[]>;
}

const MASK = (1 << BITS) - 1;

/** The GRAM units at `at` as one number: exact for ASCII; other units may share one (a match is compared whole). */
function gramAt(text: string, at: number): number {
  return (
    ((text.charCodeAt(at) << 24) ^
      (text.charCodeAt(at + 1) << 16) ^
      (text.charCodeAt(at + 2) << 8) ^
      text.charCodeAt(at + 3)) >>>
    0
  );
}

/** Where a gram's bit is in the table of grams seen. */
const slot = (key: number) => (key ^ (key >>> 16)) & MASK;
