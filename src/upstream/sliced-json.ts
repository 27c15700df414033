import { parseJsonExact } from './exact-json.js';

/** Text parsed at once: JSON.parse of this much takes a few milliseconds. */
const SLICE = 128 * 1024;
/** Characters scanned for the structure between two turns of the event loop. */
const SCAN_PER_TURN = 1024 * 1024;

/**
 * JSON of any size, parsed as parseJsonExact would, with the event loop free between slices of it (`pause` awaited
 * between them): JSON.parse of 4 MiB of small items holds the loop for 50-80 ms. One pass finds each container longer
 * than SLICE and where its items are; runs of small items are parsed together, as one JSON.parse each. Text that is
 * not JSON is parsed whole, so that its error is JSON.parse's own.
 */
export async function parseJsonInSlices(text: string, pause: () => Promise<void>): Promise<unknown> {
  if (text.length <= SLICE) return parseJsonExact(text);
  try {
    const large = await largeContainers(text, pause);
    const [start, end] = trimmed(text, 0, text.length);
    return await new SlicedParser(text, large, pause).value(start, end);
  } catch {
    return parseJsonExact(text);
  }
}

/** A container longer than SLICE: where it ends and where its commas are (not those of what it holds). */
interface Container {
  end: number;
  commas: number[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const isOpen = (c: number) => c === 0x5b || c === 0x7b;
const isClose = (c: number) => c === 0x5d || c === 0x7d;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Every container longer than SLICE, by where it starts. Throws where the brackets do not pair. */
async function largeContainers(text: string, pause: () => Promise<void>): Promise<Map<number, Container>> {
  const large = new Map<number, Container>();
  const open: { start: number; commas: number[] }[] = [];
  let turn = SCAN_PER_TURN;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i += 1; i < text.length && text.charCodeAt(i) !== QUOTE; i += 1)
        if (text.charCodeAt(i) === BACKSLASH) i += 1;
    } else if (isOpen(c)) open.push({ start: i, commas: [] });
    else if (isClose(c)) {
      const container = open.pop();
      if (!container) throw new SyntaxError('unpaired bracket');
      if (i + 1 - container.start > SLICE) large.set(container.start, { end: i + 1, commas: container.commas });
    } else if (c === COMMA) open.at(-1)?.commas.push(i);
    if (i >= turn) {
      turn = i + SCAN_PER_TURN;
      await pause();
    }
  }
  if (open.length > 0) throw new SyntaxError('unpaired bracket');
  return large;
}

/** [from, to) without the white space at either end. */
function trimmed(text: string, from: number, to: number): [number, number] {
  while (from < to && isSpace(text.charCodeAt(from))) from += 1;
  while (to > from && isSpace(text.charCodeAt(to - 1))) to -= 1;
  return [from, to];
}

class SlicedParser {
  constructor(
    readonly text: string,
    readonly large: ReadonlyMap<number, Container>,
    readonly pause: () => Promise<void>,
  ) {}

  /** The value that is exactly the text [start, end). */
  async value(start: number, end: number): Promise<unknown> {
    const container = this.large.get(start);
    if (!container || container.end !== end) return parseJsonExact(this.text.slice(start, end));
    const isArray = this.text.charCodeAt(start) === 0x5b;
    if (this.text.charCodeAt(end - 1) !== (isArray ? 0x5d : 0x7d)) throw new SyntaxError('unpaired bracket');
    const out: unknown[] | Record<string, unknown> = isArray ? [] : {};
    // Runs of small elements are parsed together; a large one is read as a value of its own (a member: key and value).
    let run: [number, number] | undefined;
    const flush = async () => {
      if (!run) return;
      const part = parseJsonExact(`${isArray ? '[' : '{'}${this.text.slice(run[0], run[1])}${isArray ? ']' : '}'}`);
      if (isArray) for (const item of part as unknown[]) (out as unknown[]).push(item);
      else for (const [key, value] of Object.entries(part as object)) setMember(out, key, value);
      run = undefined;
      await this.pause();
    };
    const bounds = [start, ...container.commas, end - 1];
    for (let k = 0; k + 1 < bounds.length; k += 1) {
      const [from, to] = trimmed(this.text, bounds[k]! + 1, bounds[k + 1]!);
      if (from === to) {
        if (bounds.length === 2) break; // [] or {}
        throw new SyntaxError('empty element');
      }
      if (to - from <= SLICE) {
        if (run && to - run[0] > SLICE) await flush();
        run = run ? [run[0], to] : [from, to];
        continue;
      }
      await flush();
      if (isArray) (out as unknown[]).push(await this.value(from, to));
      else {
        const colon = this.text.indexOf(':', this.stringEnd(from));
        const key = parseJsonExact(this.text.slice(from, colon)) as string;
        const [valueFrom] = trimmed(this.text, colon + 1, to);
        setMember(out, key, await this.value(valueFrom, to));
      }
    }
    await flush();
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
