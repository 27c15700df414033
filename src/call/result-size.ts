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
  `Shortened to fit SVC_MAX_RESULT_BYTES (${maxBytes} bytes, about ${Math.round(maxBytes / 4)} tokens): ${left}. ${how}`;

const bytes = (value: unknown) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');

/** A list that may be cut: not inside another list's items (cutting the outer one is what shortens those). */
interface List {
  array: unknown[];
  path: string;
  /** Bytes of each item as JSON. */
  items: number[];
  size: number;
}

/**
 * The JSON value with its longest lists cut until it takes at most `maxBytes` as JSON: the only way to shorten an
 * answer that keeps it valid against its schema and says plainly what is missing. The largest list loses items from
 * its end, then the next largest, until the answer fits. Undefined when no list is left to cut. Pure; the value is
 * copied. Linear in the answer: every item is measured once.
 */
export function shortenToFit(value: unknown, maxBytes: number): { value: unknown; shortened: Shortened[] } | undefined {
  const copy = structuredClone(value);
  let excess = bytes(copy) - maxBytes;
  const lists: List[] = [];
  collect(copy, '', lists);
  lists.sort((a, b) => b.size - a.size);
  const shortened: Shortened[] = [];
  for (const list of lists) {
    if (excess <= 0) break;
    const total = list.array.length;
    let kept = total;
    // [a,b,c] is 2 + a + b + c + 2 commas: an item leaves with its comma, the last one without.
    while (kept > 0 && excess > 0) {
      kept -= 1;
      excess -= list.items[kept]! + (kept > 0 ? 1 : 0);
    }
    list.array.length = kept;
    shortened.push({ path: list.path, shown: kept, total });
  }
  if (excess > 0 || bytes(copy) > maxBytes) return undefined;
  return { value: copy, shortened };
}

function collect(node: unknown, path: string, into: List[]): void {
  if (Array.isArray(node)) {
    if (node.length === 0) return;
    const items = node.map((item) => Buffer.byteLength(JSON.stringify(item ?? null), 'utf8'));
    const size = 2 + items.reduce((sum, n) => sum + n, 0) + items.length - 1;
    into.push({ array: node, path: path || '(the answer)', items, size });
  } else if (node !== null && typeof node === 'object') {
    for (const [key, child] of Object.entries(node)) collect(child, path ? `${path}.${key}` : key, into);
  }
}
