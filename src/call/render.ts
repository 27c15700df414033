import type { CountedLists } from '../catalogue/types.js';
import { CallFailure } from '../upstream/failure.js';
import { nextTurn } from '../util/next-turn.js';
import { measure, shortenToFit, shortenedNote } from './result-size.js';
import type { ToolResult } from './tool-result.js';

/**
 * What a call answers, before it becomes a result: JSON (structured content, and the same JSON as text unless
 * `text` says it in words), or text alone (E5's XML). `paging` tells how to get what a shortened list left out;
 * `counted`, the lists the reader cut short and how long they were.
 */
export type Reply =
  { json: object; text?: string; paging?: string; counted?: CountedLists } | { text: string; answeredAs: TextForm };

/** How a text answer was asked for (E5: `output: xml`, or a JSONP callback), or `text` when neither was. */
export type TextForm = 'xml' | 'jsonp' | 'text';

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
 * content and, unless the reply words it otherwise, as the same JSON text; an answer too large for that has its
 * longest lists cut, and a second text item says what was left out and how to get it. Secrets were taken out of the
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
          text: `Cut to fit SVC_MAX_RESULT_BYTES (${max}): ${kept.length} of ${text.length} characters shown.`,
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
  // Room for the structured content: all of it beside a text of words, half of it when the text repeats the JSON.
  const room = (words === undefined ? max / 2 : max - bytes(words)) - 400;
  const fitted = room > 0 ? shortenToFit(structured, measured, room) : undefined;
  if (!fitted) {
    throw new CallFailure(
      'result_too_large',
      `the answer (${size} bytes) is larger than a result may be (SVC_MAX_RESULT_BYTES=${max}) and has no list to shorten`,
    );
  }
  // A list the reader cut short had more items than it holds.
  const totals = new Map(reply.counted?.map(({ keys, total }) => [keys.join('.'), total]));
  const left = fitted.shortened
    .map((s) => `${s.path} shows ${s.shown} of ${totals.get(s.path) ?? s.total} items`)
    .join('; ');
  const how = 'paging' in reply && reply.paging ? `To get the rest, ${reply.paging}.` : 'Ask for less to get the rest.';
  return {
    content: [
      { type: 'text', text: words ?? JSON.stringify(fitted.value) },
      { type: 'text', text: shortenedNote(max, left, how) },
    ],
    structuredContent: fitted.value as Record<string, unknown>,
  };
}
