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

/**
 * The JSON value with its longest lists cut until it takes at most `maxBytes` as JSON: the only way to shorten an
 * answer that keeps it valid against its schema and says plainly what is missing. Undefined when no list is left
 * to cut. Pure; the value is copied.
 */
export function shortenToFit(value: unknown, maxBytes: number): { value: unknown; shortened: Shortened[] } | undefined {
  const copy = structuredClone(value);
  const totals = new Map<unknown[], { path: string; total: number }>();
  for (let size = bytes(copy); size > maxBytes; size = bytes(copy)) {
    const largest = largestArray(copy, '');
    if (!largest || largest.array.length === 0) return undefined;
    const { array, path } = largest;
    if (!totals.has(array)) totals.set(array, { path, total: array.length });
    // Keep the share of items that fits, at least one fewer each round.
    const arrayBytes = bytes(array);
    const keep = Math.min(array.length - 1, Math.floor((array.length * Math.max(0, arrayBytes - (size - maxBytes))) / arrayBytes));
    array.length = Math.max(0, keep);
  }
  const shortened = [...totals.entries()].map(([array, { path, total }]) => ({ path, shown: array.length, total }));
  return { value: copy, shortened };
}

function largestArray(node: unknown, path: string): { array: unknown[]; path: string; size: number } | undefined {
  let best: { array: unknown[]; path: string; size: number } | undefined;
  const consider = (candidate: typeof best) => {
    if (candidate && (!best || candidate.size > best.size)) best = candidate;
  };
  // A list is larger than any list inside its items: those are never the largest.
  if (Array.isArray(node)) {
    if (node.length > 0) consider({ array: node, path: path || '(the answer)', size: bytes(node) });
  } else if (node !== null && typeof node === 'object') {
    for (const [key, child] of Object.entries(node)) consider(largestArray(child, path ? `${path}.${key}` : key));
  }
  return best;
}
