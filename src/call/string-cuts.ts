/** A long string of the answer cut in its middle, for the note that says what was left out. */
export interface StringCut {
  path: string;
  /** Code points: the first one left out (1-based), how many, and the string's length. */
  from: number;
  count: number;
  length: number;
  /** The characters left out all belong to a prompt of the call that the answer repeats at its start (E12). */
  echoed: boolean;
}

/** Where a string was cut: `[… N characters cut …]`, so that no reader takes the rest for the whole. */
export const cutMark = (count: number) => `[… ${count} characters cut …]`;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
/** Bytes of one code point inside a JSON string (escapes included). */
const jsonBytes = (ch: string) => bytes(JSON.stringify(ch)) - 2;

/** Bytes of an echoed prompt's end kept before what was generated after it. */
const ECHO_CONTEXT_BYTES = 200;

/** Strings shorter than this are left alone: cutting them gains little and loses a field's meaning. */
const MIN_CUT_BYTES = 256;

interface Found {
  keys: readonly string[];
  text: string;
  size: number;
}

/**
 * The JSON value with its longest strings (outside lists, whose items are cut whole) cut in the middle until it takes
 * at most `maxBytes` as JSON: the start and the end of each stay, a mark says how much is missing between them. A
 * string that starts with one of `echoes` (the call's own long arguments, which E12 repeats before what it generated)
 * keeps its end, the part after the echo, whole where it can. Undefined when the strings cannot absorb the excess.
 * Pure: the value is not changed; what holds a cut string is copied.
 */
export function cutStrings(
  value: unknown,
  maxBytes: number,
  echoes: readonly string[] = [],
): { value: unknown; cuts: StringCut[] } | undefined {
  const found: Found[] = [];
  collect(value, [], found);
  let excess = bytes(JSON.stringify(value)) - maxBytes;
  if (excess <= 0) return { value, cuts: [] };
  const cuts: StringCut[] = [];
  const replacements: { keys: readonly string[]; value: string }[] = [];
  for (const string of found.filter((f) => f.size >= MIN_CUT_BYTES).sort((a, b) => b.size - a.size)) {
    if (excess <= 0) break;
    const points = [...string.text];
    const sizes = points.map(jsonBytes);
    const mark = cutMark(points.length);
    // What the string may keep: its size less the excess and the mark (whose digits may only be fewer than these).
    const budget = Math.max(0, string.size - 2 - excess - bytes(mark));
    const echo = echoes.find((e) => e.length > 0 && string.text.startsWith(e));
    const echoPoints = echo === undefined ? 0 : [...echo].length;
    const afterEcho = sizes.slice(echoPoints).reduce((sum, n) => sum + n, 0);
    // The end after an echo is what was generated: kept whole when it fits, with the echo's last words where they fit
    // too (a prompt's closing cue, after which the generated text starts); else the budget is shared evenly.
    const tailBudget =
      echo !== undefined && afterEcho <= budget
        ? Math.min(budget, afterEcho + ECHO_CONTEXT_BYTES)
        : Math.floor(budget / 2);
    let tail = 0;
    for (let used = 0; tail < points.length && used + sizes[points.length - 1 - tail]! <= tailBudget; tail += 1)
      used += sizes[points.length - 1 - tail]!;
    let head = 0;
    for (let used = 0; head < points.length - tail && used + sizes[head]! <= budget - tailBudget; head += 1)
      used += sizes[head]!;
    const count = points.length - head - tail;
    if (count <= 0) continue;
    const text = points.slice(0, head).join('') + cutMark(count) + points.slice(points.length - tail).join('');
    const size = bytes(JSON.stringify(text));
    excess -= string.size - size;
    replacements.push({ keys: string.keys, value: text });
    cuts.push({
      path: string.keys.join('.'),
      from: head + 1,
      count,
      length: points.length,
      echoed: echo !== undefined && head + count <= echoPoints,
    });
  }
  if (excess > 0) return undefined;
  return { value: withReplacements(value, replacements), cuts };
}

/** `root` with values replaced at the given keys: every object on the way to one is copied once, nothing else. */
export function withReplacements(root: unknown, replacements: readonly { keys: readonly string[]; value: unknown }[]) {
  const copies = new Map<unknown, Record<string, unknown>>();
  const copyOf = (node: unknown) => {
    let copy = copies.get(node);
    if (!copy) copies.set(node, (copy = { ...(node as Record<string, unknown>) }));
    return copy;
  };
  let out = root;
  for (const { keys, value } of replacements) {
    if (keys.length === 0) {
      out = value;
      continue;
    }
    let node = root;
    let holder = (out = copyOf(root));
    for (const key of keys.slice(0, -1)) {
      node = (node as Record<string, unknown>)[key];
      holder = holder[key] = copyOf(node);
    }
    holder[keys.at(-1)!] = value;
  }
  return out;
}

function collect(node: unknown, keys: readonly string[], into: Found[]): void {
  if (typeof node === 'string') into.push({ keys, text: node, size: bytes(JSON.stringify(node)) });
  else if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
    for (const [key, child] of Object.entries(node)) collect(child, [...keys, key], into);
  }
}
