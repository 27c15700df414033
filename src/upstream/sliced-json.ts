import { parseJsonExact } from './exact-json.js';

/** Text parsed at once: JSON.parse of this much takes a few milliseconds. */
const SLICE = 128 * 1024;
/** Characters scanned for the structure between two turns of the event loop. */
const SCAN_PER_TURN = 1024 * 1024;
/**
 * The deepest nesting of arrays and objects read. JSON.stringify, structuredClone and every recursive walk stop with
 * "Maximum call stack size exceeded" some 4,000 levels down (less on a deep stack): an answer this server could read
 * but never hand on is refused before it is parsed. No platform answer nests beyond a dozen levels.
 */
export const MAX_NESTING = 1000;

/** JSON nested deeper than MAX_NESTING: valid, perhaps, but more than this server can carry. */
export class TooDeep extends Error {
  constructor() {
    super(`nested more than ${MAX_NESTING} levels deep, deeper than this server reads`);
  }
}

/** A list of which only the first items were kept: where it is (from the root; none inside another list) and how long
 * it was. */
export interface CountedList {
  keys: readonly string[];
  total: number;
}

export interface Parsed {
  value: unknown;
  /** The lists cut to `keepItems` (their items beyond were read, and dropped). */
  counted: CountedList[];
}

/**
 * JSON of any size, parsed as parseJsonExact would, with the event loop free between slices of it (`pause` awaited
 * between them): JSON.parse of 4 MiB of small items holds the loop for 50-80 ms. One pass finds each container longer
 * than SLICE and where its items are; runs of small items are parsed together, as one JSON.parse each. Text that is
 * not JSON is parsed whole, so that its error is JSON.parse's own; JSON nested deeper than MAX_NESTING is TooDeep.
 *
 * Of a long list only the first `keepItems` items are kept (the rest are parsed, so that broken JSON is still found,
 * and dropped): 4 MiB of `{}` are 1.4 million objects, some 90 MiB, where a result can show a few thousand. The
 * caller chooses a bound no result can reach; `counted` says which lists were cut and how long they were.
 */
export async function parseJsonInSlices(
  text: string,
  pause: () => Promise<void>,
  keepItems = Infinity,
): Promise<Parsed> {
  return (await inSlices(text, pause, keepItems)) ?? { value: parseJsonExact(text), counted: [] };
}

/** The value parsed slice by slice, or undefined when the text is parsed whole: small, or not JSON. */
async function inSlices(text: string, pause: () => Promise<void>, keepItems: number): Promise<Parsed | undefined> {
  let large: Map<number, Container>;
  try {
    large = await largeContainers(text, text.length > SLICE ? pause : () => Promise.resolve());
  } catch (error) {
    if (error instanceof TooDeep) throw error;
    return undefined;
  }
  if (text.length <= SLICE) return undefined;
  const parser = new SlicedParser(text, large, pause, keepItems);
  try {
    const [start, end] = trimmed(text, 0, text.length);
    return { value: await parser.value(start, end, []), counted: parser.counted };
  } catch {
    return undefined;
  }
}

/** A container longer than SLICE: where it ends and where its commas are (not those of what it holds). */
interface Container {
  end: number;
  commas: Int32Array;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const isOpen = (c: number) => c === 0x5b || c === 0x7b;
const isClose = (c: number) => c === 0x5d || c === 0x7d;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Every container longer than SLICE, by where it starts. Throws where the brackets do not pair, TooDeep past
 * MAX_NESTING. Nothing is made per container: the open ones are a stack of numbers, and the commas of every open one
 * share one log, in which an inner container's commas follow its holder's and leave when it closes.
 */
async function largeContainers(text: string, pause: () => Promise<void>): Promise<Map<number, Container>> {
  const large = new Map<number, Container>();
  const starts = new Int32Array(MAX_NESTING);
  const logFrom = new Int32Array(MAX_NESTING);
  let log = new Int32Array(1024);
  let logged = 0;
  let depth = 0;
  let turn = SCAN_PER_TURN;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i += 1; i < text.length && text.charCodeAt(i) !== QUOTE; i += 1)
        if (text.charCodeAt(i) === BACKSLASH) i += 1;
    } else if (isOpen(c)) {
      if (depth === MAX_NESTING) throw new TooDeep();
      starts[depth] = i;
      logFrom[depth] = logged;
      depth += 1;
    } else if (isClose(c)) {
      if (depth === 0) throw new SyntaxError('unpaired bracket');
      depth -= 1;
      const start = starts[depth]!;
      if (i + 1 - start > SLICE) large.set(start, { end: i + 1, commas: log.slice(logFrom[depth], logged) });
      logged = logFrom[depth]!;
    } else if (c === COMMA && depth > 0) {
      if (logged === log.length) {
        const grown = new Int32Array(log.length * 2);
        grown.set(log);
        log = grown;
      }
      log[logged++] = i;
    }
    if (i >= turn) {
      turn = i + SCAN_PER_TURN;
      await pause();
    }
  }
  if (depth > 0) throw new SyntaxError('unpaired bracket');
  return large;
}

/** [from, to) without the white space at either end. */
function trimmed(text: string, from: number, to: number): [number, number] {
  while (from < to && isSpace(text.charCodeAt(from))) from += 1;
  while (to > from && isSpace(text.charCodeAt(to - 1))) to -= 1;
  return [from, to];
}

class SlicedParser {
  readonly counted: CountedList[] = [];

  constructor(
    readonly text: string,
    readonly large: ReadonlyMap<number, Container>,
    readonly pause: () => Promise<void>,
    readonly keepItems: number,
  ) {}

  /** The value that is exactly the text [start, end); `keys` is its place, undefined inside a list's item. */
  async value(start: number, end: number, keys: readonly string[] | undefined): Promise<unknown> {
    const container = this.large.get(start);
    if (!container || container.end !== end) return parseJsonExact(this.text.slice(start, end));
    const isArray = this.text.charCodeAt(start) === 0x5b;
    if (this.text.charCodeAt(end - 1) !== (isArray ? 0x5d : 0x7d)) throw new SyntaxError('unpaired bracket');
    const out: unknown[] | Record<string, unknown> = isArray ? [] : {};
    let count = 0;
    // Runs of small elements are parsed together; a large one is read as a value of its own (a member: key and value).
    let run: [number, number] | undefined;
    const flush = async () => {
      if (!run) return;
      const part = parseJsonExact(`${isArray ? '[' : '{'}${this.text.slice(run[0], run[1])}${isArray ? ']' : '}'}`);
      if (!isArray) for (const [key, value] of Object.entries(part as object)) setMember(out, key, value);
      else for (const item of part as unknown[]) if (count++ < this.keepItems) (out as unknown[]).push(item);
      run = undefined;
      await this.pause();
    };
    const { commas } = container;
    const last = commas.length;
    for (let k = 0; k <= last; k += 1) {
      const [from, to] = trimmed(this.text, (k === 0 ? start : commas[k - 1]!) + 1, k === last ? end - 1 : commas[k]!);
      if (from === to) {
        if (last === 0) break; // [] or {}
        throw new SyntaxError('empty element');
      }
      if (to - from <= SLICE) {
        if (run && to - run[0] > SLICE) await flush();
        run = run ? [run[0], to] : [from, to];
        continue;
      }
      await flush();
      if (isArray) {
        const item = await this.value(from, to, undefined);
        if (count++ < this.keepItems) (out as unknown[]).push(item);
      } else {
        const colon = this.text.indexOf(':', this.stringEnd(from));
        const key = parseJsonExact(this.text.slice(from, colon)) as string;
        const [valueFrom] = trimmed(this.text, colon + 1, to);
        setMember(out, key, await this.value(valueFrom, to, keys && [...keys, key]));
      }
    }
    await flush();
    if (count > this.keepItems && keys) this.counted.push({ keys, total: count });
    return out;
  }

  /** Where the JSON string that starts at `at` ends. */
  stringEnd(at: number): number {
    if (this.text.charCodeAt(at) !== QUOTE) throw new SyntaxError('expected a key');
    let i = at + 1;
    for (; i < this.text.length && this.text.charCodeAt(i) !== QUOTE; i += 1) {
      if (this.text.charCodeAt(i) === BACKSLASH) i += 1;
    }
    return i + 1;
  }
}

/** A member as JSON.parse makes it: `__proto__` too is a member of its own, not the object's prototype. */
function setMember(object: unknown[] | Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
