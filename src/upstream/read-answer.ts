import { OFF_SPEC_KEY, OFF_SPEC_ITEM } from '../catalogue/answers.js';
import type { AnswerPlan } from '../catalogue/answer-plan.js';
import type { CompiledOperation } from '../catalogue/compile.js';
import type { Answer, AnyOperation } from '../catalogue/types.js';
import type { Enveloped } from './answer-envelope.js';
import { snippet } from './answer-words.js';
import { CallFailure } from '../failures.js';
import type { RawResponse } from './http.js';

type Json = Record<string, unknown>;
type Paths = readonly (readonly string[])[];

/**
 * The last stage of an answer's chain: the answer read against the operation's compiled plan. An answer without what
 * a success of the operation carries (the required members of its output schema) is a failure that says so, an empty
 * body too; text (E5's XML) and JSONP asked for as such pass as they came, once their status is known to be a success.
 */
export async function readAgainstPlan<Op extends AnyOperation>(
  operation: CompiledOperation<Op>,
  res: RawResponse,
  body: Enveloped,
  pause: () => Promise<void>,
): Promise<Answer<Op>> {
  if (body.kind === 'empty') throw lacking(operation, res, 'an empty body');
  if (body.kind === 'text') return { kind: 'text', value: res.text } as Answer<Op>;
  const read = await readAnswer(operation.answerPlan(), body.value, operation.successPaths(), pause);
  if ('lacking' in read) throw lacking(operation, res, read.lacking.join(', '), `: ${snippet(res.text)}`);
  const { value } = read;
  const { counted } = body;
  return (
    body.jsonp ? { kind: 'text', value: res.text } : { kind: 'json', value, ...(counted.length > 0 ? { counted } : {}) }
  ) as Answer<Op>;
}

/**
 * The failure of an answer without what a success carries. For a write, the exchange adds that it may have taken
 * effect.
 */
function lacking(operation: CompiledOperation, res: RawResponse, what: string, after = ''): CallFailure {
  return new CallFailure(
    'unexpected_response',
    `the upstream answered HTTP ${res.status} with ${what}; a success of ${operation.id} carries ${successWords(operation)}${after}`,
    { httpStatus: res.status },
  );
}

/** "code SUCCESS and data": the success paths, with the value the envelope requires where it requires one. */
function successWords(operation: CompiledOperation): string {
  const envelope = operation.envelope;
  const words = operation.successPaths().map((path) => {
    const name = path.join('.');
    return envelope && envelope.path.join('.') === name ? `${name} ${envelope.values.join(' or ')}` : name;
  });
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? 'a body');
}

/** An answer as its output schema reads it, or what a success carries that it lacks (in words). */
type ReadAnswer = { value: Json } | { lacking: string[] };

/**
 * Reads a parsed answer as its output schema says, a node at a time, in linear time and with the event loop free
 * every WORK_PER_TURN nodes (a list of 100,000 tiny items is read in many turns; zod on the whole answer took one
 * long one). A tolerant reader: a value of another type than the spec's is set aside in the `offSpec` of the list item
 * that holds it (keyed by its path within the item; an item that is itself of another type becomes
 * `{"offSpec": {"": item}}` in its place), or of the answer when no list holds it; the rest passes as it came. A
 * member the upstream itself named `offSpec` goes to the same note, under its own path "offSpec". Only
 * what a success carries (`required`: the success paths) must be as the spec says. Nothing of `body` is changed: a
 * node that changes is copied, the others are shared.
 */
async function readAnswer(
  plan: AnswerPlan,
  body: Json,
  required: Paths,
  pause: () => Promise<void>,
): Promise<ReadAnswer> {
  const reader = new Reader();
  const aside: Json = {};
  const value = reader.check(plan, body, aside, '', required) as Json;
  await reader.readLists(pause);
  if (reader.lacking.length > 0) return { lacking: reader.lacking };
  return { value: Object.keys(aside).length > 0 ? { ...value, [OFF_SPEC_KEY]: aside } : value };
}

/** Nodes read between two turns of the event loop (a few milliseconds). */
const WORK_PER_TURN = 20_000;
/** A list longer than this is read item by item between turns, after the rest. */
const LONG_LIST = 64;
const NONE: Paths = [];

/** A value that is not as its schema says; why, in zod's words, only when asked (most are set aside unread). */
class Mismatch {
  constructor(
    readonly value: unknown,
    readonly plan?: AnswerPlan,
    readonly why?: string,
  ) {}

  get message(): string {
    const schema = this.plan?.kind === 'value' ? this.plan.schema : undefined;
    return this.why ?? schema?.safeParse(this.value).error?.issues[0]?.message ?? 'not as the spec says';
  }
}

/** A long list, read later; `done` puts what was read where the list was. */
interface LongList {
  element: AnswerPlan;
  items: unknown[];
  done(items: unknown[]): void;
}

function isEmpty(object: Json): boolean {
  for (const _ in object) return false;
  return true;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

class Reader {
  readonly lacking: string[] = [];
  readonly #lists: LongList[] = [];
  #work = 0;

  /**
   * The value as `schema` reads it, or a Mismatch. A member that does not match is moved to `aside` under its path
   * (`at`, from the holder of `aside`), unless a success carries it (`required` holds the success paths below it).
   */
  check(plan: AnswerPlan, value: unknown, aside: Json, at: string, required: Paths): unknown {
    this.#work += 1;
    if (value === undefined) return plan.optional ? value : new Mismatch(value, undefined, 'missing');
    if (value === null && plan.nullable) return value;
    switch (plan.kind) {
      case 'object': {
        if (!isObject(value)) return new Mismatch(value, undefined, `expected object, received ${typeName(value)}`);
        let out: Json | undefined;
        for (const [key, member] of plan.members) {
          const v = value[key];
          if (v === undefined && member.optional) continue;
          if (key === OFF_SPEC_KEY && at === '') {
            // The holder of a note (the answer, a list item): the upstream's own member of that name joins the note.
            out ??= { ...value };
            aside[OFF_SPEC_KEY] = v;
            delete out[key];
            continue;
          }
          const path = at === '' ? key : `${at}.${key}`;
          const essential = required.length > 0 && required.some((p) => p[0] === key);
          const read = this.check(member, v, aside, path, essential ? under(required, key) : NONE);
          if (read === v) continue;
          if (read instanceof Mismatch && !essential && v === undefined)
            return new Mismatch(value, undefined, `no ${key}`);
          out ??= { ...value };
          if (read instanceof LongListRead) read.into(out, key);
          else if (!(read instanceof Mismatch)) out[key] = read;
          else if (essential)
            this.lacking.push(v == null ? `no ${path}` : `${path} that is not as the spec says (${read.message})`);
          else {
            aside[path] = v;
            delete out[key];
          }
        }
        return out ?? value;
      }
      case 'list': {
        if (!Array.isArray(value)) return new Mismatch(value, undefined, `expected array, received ${typeName(value)}`);
        if (value.length > LONG_LIST) {
          const later = new LongListRead();
          this.#lists.push({ element: plan.element, items: value, done: (items) => later.done(items) });
          return later;
        }
        let out: unknown[] | undefined;
        for (let i = 0; i < value.length; i += 1) {
          const read = this.#item(plan.element, value[i]);
          if (read === value[i]) continue;
          out ??= [...value];
          if (read instanceof LongListRead) read.into(out, i);
          else out[i] = read;
        }
        return out ?? value;
      }
      default: {
        // Most fields are a plain string, number or boolean: their type says it all, and zod need not be asked.
        if (plan.type) return typeof value === plan.type ? value : new Mismatch(value, plan);
        if (plan.list && Array.isArray(value)) return this.check(plan.list, value, aside, at, required);
        const parsed = plan.schema.safeParse(value);
        return parsed.success ? parsed.data : new Mismatch(value, plan);
      }
    }
  }

  /** A list item as its schema reads it: its own values of another type in its own offSpec, by path. */
  #item(element: AnswerPlan, item: unknown): unknown {
    const aside: Json = {};
    const read = this.check(element, item, aside, '', NONE);
    if (read instanceof Mismatch) return { [OFF_SPEC_KEY]: { [OFF_SPEC_ITEM]: item } };
    // A value set aside was taken out of a copy: the item read is that copy.
    if (!isEmpty(aside)) (read as Json)[OFF_SPEC_KEY] = aside;
    return read;
  }

  /** Reads the long lists found so far (and those found in their items), pausing every WORK_PER_TURN nodes. */
  async readLists(pause: () => Promise<void>): Promise<void> {
    let turn = this.#work + WORK_PER_TURN;
    for (let next = 0; next < this.#lists.length; next += 1) {
      const { element, items, done } = this.#lists[next]!;
      let out: unknown[] | undefined;
      for (let i = 0; i < items.length; i += 1) {
        const read = this.#item(element, items[i]);
        if (read !== items[i]) {
          out ??= items.slice();
          if (read instanceof LongListRead) read.into(out, i);
          else out[i] = read;
        }
        if (this.#work >= turn) {
          await pause();
          turn = this.#work + WORK_PER_TURN;
        }
      }
      done(out ?? items);
    }
  }
}

/** A long list's place: filled once the list is read (its holder is a copy of its own by then). */
class LongListRead {
  #place: { holder: Json | unknown[]; key: string | number } | undefined;
  #items: unknown[] | undefined;

  into(holder: Json | unknown[], key: string | number): void {
    this.#place = { holder, key };
    if (this.#items) (holder as Json)[key as string] = this.#items;
  }

  done(items: unknown[]): void {
    this.#items = items;
    if (this.#place) (this.#place.holder as Json)[this.#place.key as string] = items;
  }
}

/** The success paths below a member (none when the member itself is the end of one). */
function under(paths: Paths, key: string): Paths {
  const below: (readonly string[])[] = [];
  for (const path of paths) if (path[0] === key && path.length > 1) below.push(path.slice(1));
  return below;
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}
