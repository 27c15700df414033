import type { CountedLists } from '../catalogue/types.js';
import { ANSWER_FORMS, type AnswerForm } from '../catalogue/compile.js';
import { envName } from '../config/index.js';
import { CallFailure } from '../failures.js';
import { nextTurn } from '../util/next-turn.js';
import { measure, shortenToFit, shortenedNote, type Shortened } from './result-size.js';
import { cutMark, cutStrings, type StringCut } from './string-cuts.js';
import type { ToolResult } from './tool-result.js';

/**
 * What a call answers, before it becomes a result: JSON (structured content, and the same JSON as text unless
 * `text` says it in words), or text alone (E5's XML).
 */
export type Reply =
  | {
      json: object;
      text?: string;
      /** How to get the items a shortened list left out (the largest list cut). */
      paging?: (cut: Shortened) => string;
      /** The call's long string arguments: an answer that repeats one (E12's prompt) loses that part first. */
      echoes?: readonly string[];
      /** The lists the reader cut short, and how long they were. */
      counted?: CountedLists;
    }
  | { text: string; answeredAs: TextForm };

/** How a text answer was asked for (E5: `output: xml`, or a JSONP callback), or `text` when neither was. */
export type TextForm = Exclude<AnswerForm, 'json'> | 'text';
export const TEXT_FORMS: readonly TextForm[] = [
  ...ANSWER_FORMS.filter((form): form is Exclude<AnswerForm, 'json'> => form !== 'json'),
  'text',
];

/** The member of a text answer's structured content that says its form: MCP wants structured content wherever an
 * output schema is declared, and the answer itself is the text content. */
export const ANSWERED_AS = 'answeredAs';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * More items of one list than a result of `maxBytes` can show: each takes a byte and a comma at least. The reader
 * keeps no more of a long list (4 MiB of `{}` are 1.4 million objects): a list it cut is always cut again here, and
 * the note gives its full length.
 */
export const itemsAResultCanShow = (maxBytes: number) => Math.floor(maxBytes / 2) + 1;

/**
 * The render stage: a reply as a result within the size limit (SVC_MAX_RESULT_BYTES). JSON appears as structured
 * content and, unless the reply words it otherwise, as the same JSON text. An answer too large for that, in this order:
 * whole once in the structured content, its text copy with long strings cut; its longest lists cut in both; its long
 * strings cut in both (lists too where they alone cannot make room). A second text item says what was left out and
 * how to get it. Secrets were taken out of the
 * upstream's answer when it arrived, before anything was read or cut from it. A large answer is measured in slices,
 * `pause` awaited between them; it is never copied whole.
 */
export async function render(reply: Reply, max: number, pause: () => Promise<void> = nextTurn): Promise<ToolResult> {
  if (!('json' in reply)) {
    const { text } = reply;
    const structuredContent = { [ANSWERED_AS]: reply.answeredAs };
    if (bytes(text) <= max) return { content: [{ type: 'text', text }], structuredContent };
    const kept = Buffer.from(text, 'utf8')
      .subarray(0, max - 300)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    return {
      content: [
        { type: 'text', text: kept },
        {
          type: 'text',
          text: `Cut to fit ${envName('SVC_MAX_RESULT_BYTES')} (${max}): ${kept.length} of ${text.length} characters shown.`,
        },
      ],
      structuredContent,
    };
  }
  const structured = reply.json as Record<string, unknown>;
  const measured = await measure(structured, pause);
  const { size } = measured;
  const words = reply.text;
  if (size + (words === undefined ? size : bytes(words)) <= max) {
    return { content: [{ type: 'text', text: words ?? JSON.stringify(structured) }], structuredContent: structured };
  }
  const echoes = reply.echoes ?? [];
  // The answer whole once, in the structured content, and its text copy with long strings cut: nothing is lost.
  if (words === undefined && size + NOTE_ROOM < max) {
    const copy = cutToFit(
      (room) => cutStrings(structured, room, echoes),
      max - size - NOTE_ROOM,
      (v) => size + quoted(v),
      max - NOTE_ROOM,
    );
    if (copy) {
      return {
        content: [
          { type: 'text', text: JSON.stringify(copy.value) },
          {
            type: 'text',
            text: shortenedNote(
              max,
              `this text's copy of the answer ${copy.cuts.map(cutWords).join('; ')}`,
              'structuredContent holds the whole answer.' +
                (copy.cuts.every((c) => c.echoed)
                  ? ''
                  : ' A client that reads only this text gets what is cut by sending less per call.'),
            ),
          },
        ],
        structuredContent: structured,
      };
    }
  }
  // Room for the structured content: all of it beside a text of words, half of it when the text repeats the JSON.
  const room = (words === undefined ? max / 2 : max - bytes(words)) - NOTE_ROOM;
  const both = (v: unknown) => bytes(JSON.stringify(v)) + (words === undefined ? quoted(v) : quoted(words));
  const fitted =
    room > 0 ? cutToFit((r) => shortenToFit(structured, measured, r), room, both, max - NOTE_ROOM) : undefined;
  if (fitted) {
    const lists = withTotals(fitted.shortened, reply);
    const left = lists.map(listWords).join('; ');
    return {
      content: [
        { type: 'text', text: words ?? JSON.stringify(fitted.value) },
        { type: 'text', text: shortenedNote(max, left, listHow(reply, lists)) },
      ],
      structuredContent: fitted.value as Record<string, unknown>,
    };
  }
  // Long strings cut in both copies, after the lists where those alone cannot make room.
  let shortened: Shortened[] = [];
  let cut = room > 0 ? cutToFit((r) => cutStrings(structured, r, echoes), room, both, max - NOTE_ROOM) : undefined;
  if (!cut && room > 0 && measured.lists.length > 0) {
    const inLists = measured.lists.reduce((sum, l) => sum + l.size, 0);
    const lists = shortenToFit(structured, measured, size - Math.max(0, inLists - room / 2), true)!;
    shortened = withTotals(lists.shortened, reply);
    cut = cutToFit((r) => cutStrings(lists.value, r, echoes), room, both, max - NOTE_ROOM);
  }
  if (!cut) {
    throw new CallFailure(
      'result_too_large',
      `the answer (${size} bytes) is larger than a result may be (${envName('SVC_MAX_RESULT_BYTES')}=${max}) and has no list or ` +
        'long text to shorten. The upstream did the work (billed, where the service bills): ask for less, or have ' +
        `${envName('SVC_MAX_RESULT_BYTES')} raised, to get it`,
    );
  }
  const left = [...shortened.map(listWords), ...cut.cuts.map(cutWords)].join('; ');
  const how = [
    ...(shortened.length > 0 ? [listHow(reply, shortened)] : []),
    cut.cuts.every((c) => c.echoed)
      ? 'The cut characters repeat the prompt you sent: nothing generated is left out.'
      : 'The upstream did the work (billed, where the service bills); to get what is cut, send less per call, or have ' +
        `${envName('SVC_MAX_RESULT_BYTES')} raised.`,
  ].join(' ');
  return {
    content: [
      { type: 'text', text: words ?? JSON.stringify(cut.value) },
      { type: 'text', text: shortenedNote(max, left, how) },
    ],
    structuredContent: cut.value as Record<string, unknown>,
  };
}

/** Bytes of a value's JSON as a text item carries it: quoted once more, its quotes and backslashes escaped. */
const quoted = (value: unknown) => bytes(JSON.stringify(JSON.stringify(value)));

/**
 * A cut at `room` bytes, tried again smaller while the result it makes (`measured`, at most `max`) does not fit: the
 * text item's escapes are known only once it is written.
 */
function cutToFit<T extends { value: unknown }>(
  attempt: (room: number) => T | undefined,
  room: number,
  measured: (value: unknown) => number,
  max: number,
): T | undefined {
  for (let tries = 0; tries < 4 && room > 0; tries += 1) {
    const cut = attempt(room);
    if (!cut) return undefined;
    const over = measured(cut.value) - max;
    if (over <= 0) return cut;
    room -= over;
  }
  return undefined;
}

/** Bytes kept free for the note that ends a shortened result. */
const NOTE_ROOM = 600;

/** A list the reader cut short had more items than it holds: its note and paging count them all. */
function withTotals(shortened: readonly Shortened[], reply: Extract<Reply, { json: object }>): Shortened[] {
  if (!reply.counted) return [...shortened];
  const totals = new Map(reply.counted.map(({ keys, total }) => [keys.join('.'), total]));
  return shortened.map((s) => ({ ...s, total: totals.get(s.path) ?? s.total }));
}

const listWords = (s: Shortened) => `${s.path} shows ${s.shown} of ${s.total} items`;

const cutWords = (c: StringCut) =>
  `${c.path} leaves out characters ${c.from}-${c.from + c.count - 1} of ${c.length} (marked ${cutMark(c.count)})` +
  (c.echoed ? ', all of the prompt the answer repeats' : '');

function listHow(reply: Extract<Reply, { json: object }>, shortened: readonly Shortened[]): string {
  if (reply.paging && shortened[0]) return `To get the rest, ${reply.paging(shortened[0])}.`;
  return `This tool cannot ask for part of its list: only a larger ${envName('SVC_MAX_RESULT_BYTES')} (a server setting) gives it whole.`;
}
