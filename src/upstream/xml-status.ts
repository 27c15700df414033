/**
 * E5's XML answers carry the maps `status`, which decides whether the answer is a success, so the decode stage
 * (answer-decode.ts) reads it from them as from JSON. Linear in the text: indexOf, no backtracking regex over the body.
 */

export interface XmlStatus {
  code: string;
  name?: string;
  message?: string;
}

/**
 * The `<status>` of an XML answer: its `code`, `name` and `message` (the spec gives the JSON members; the XML layout
 * is not shown, so the reading is tolerant): the first `status` element that has a code, as a child element or an
 * attribute, whatever its namespace prefix; comments, CDATA sections, processing instructions and declarations are
 * not elements (a status quoted in a comment is not the answer's). Undefined when there is none. One pass over the
 * text: each child's text is read once and the walk goes on after it.
 */
export function xmlStatus(xml: string): XmlStatus | undefined {
  /** How deep the walk is: elements opened and not yet closed. */
  let depth = 0;
  /** The status elements open around the walk, innermost last, with the depth of each and what was read of it. */
  const statuses: { depth: number; read: Partial<XmlStatus> }[] = [];
  let at = 0;
  for (;;) {
    const tag = nextTag(xml, at);
    if (!tag) return undefined;
    at = tag.end;
    const inner = statuses.at(-1);
    if (tag.closing) {
      if (tag.name === 'status' && inner?.depth === depth) {
        statuses.pop();
        if (inner.read.code) return inner.read as XmlStatus;
      }
      depth = Math.max(0, depth - 1);
    } else if (tag.name === 'status') {
      const read = fromAttributes(tag.attributes);
      if (tag.selfClosing) {
        if (read.code) return read as XmlStatus;
      } else statuses.push({ depth: (depth += 1), read });
    } else if (inner?.depth === depth && STATUS_MEMBERS.has(tag.name)) {
      // A child of the innermost status: its text, read once; the walk goes on after its closing tag.
      const text = tag.selfClosing ? { text: '', end: tag.end } : textUntilClose(xml, tag);
      if (!text) return inner.read.code ? (inner.read as XmlStatus) : undefined;
      const member = tag.name as keyof XmlStatus;
      if (text.text.trim() && inner.read[member] === undefined) inner.read[member] = text.text.trim();
      at = text.end;
    } else if (!tag.selfClosing) depth += 1;
  }
}

const STATUS_MEMBERS = new Set(['code', 'name', 'message']);

interface Tag {
  /** The local name: without a namespace prefix (`ns:status` is a status). */
  name: string;
  /** The name as written, prefix included: what its closing tag repeats. */
  qualified: string;
  closing: boolean;
  selfClosing: boolean;
  attributes: string;
  /** Just after its `>`. */
  end: number;
}

/** The next element tag from `from` on, past comments, CDATA, processing instructions and declarations. */
function nextTag(xml: string, from: number): Tag | undefined {
  let at = from;
  for (;;) {
    at = xml.indexOf('<', at);
    if (at < 0) return undefined;
    const skipped = skipNonElement(xml, at);
    if (skipped === -1) return undefined;
    if (skipped === at) return tagAt(xml, at);
    at = skipped;
  }
}

/** The element tag that starts at `at` (a `<` that opens no comment or the like); undefined when it never ends. */
function tagAt(xml: string, at: number): Tag | undefined {
  const end = tagEnd(xml, at + 1);
  if (end < 0) return undefined;
  const closing = xml.charAt(at + 1) === '/';
  const inner = xml.slice(at + (closing ? 2 : 1), end - 1);
  const selfClosing = inner.endsWith('/');
  const body = selfClosing ? inner.slice(0, -1) : inner;
  const nameEnd = body.search(/[\s/]|$/);
  const qualified = body.slice(0, nameEnd);
  return {
    name: qualified.slice(qualified.indexOf(':') + 1),
    qualified,
    closing,
    selfClosing,
    attributes: body.slice(nameEnd),
    end,
  };
}

/** Where the text after what starts at `at` goes on when it is no element (a comment...); `at` itself when it is
 * one; -1 when it never ends. */
function skipNonElement(xml: string, at: number): number {
  for (const [open, close] of NON_ELEMENTS) {
    if (!xml.startsWith(open, at)) continue;
    const end = xml.indexOf(close, at + open.length);
    return end < 0 ? -1 : end + close.length;
  }
  return at;
}

const CDATA_OPEN = '<![CDATA[';

/** Comments, CDATA sections, processing instructions and declarations (`<!DOCTYPE ...>`), each with its end. */
const NON_ELEMENTS: [string, string][] = [
  ['<!--', '-->'],
  [CDATA_OPEN, ']]>'],
  ['<?', '?>'],
  ['<!', '>'],
];

/** Just after the `>` of the tag whose name starts at `from`; a `>` inside a quoted attribute value does not end it. */
function tagEnd(xml: string, from: number): number {
  let quote = '';
  for (let i = from; i < xml.length; i++) {
    const c = xml.charAt(i);
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i + 1;
  }
  return -1;
}

/** The status members written as attributes (`<status code="0" name="ok"/>`), entities decoded. */
function fromAttributes(attributes: string): Partial<XmlStatus> {
  const found: Partial<XmlStatus> = {};
  for (const match of attributes.matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const name = match[1]!.slice(match[1]!.indexOf(':') + 1);
    const value = decode(match[2] ?? match[3] ?? '').trim();
    if (STATUS_MEMBERS.has(name) && value) found[name as keyof XmlStatus] ??= value;
  }
  return found;
}

/**
 * The text of the element that `open` starts, up to its closing tag: text with entities decoded and CDATA as it is;
 * comments, processing instructions and the tags of child elements left out. Undefined when it never closes.
 */
function textUntilClose(xml: string, open: Tag): { text: string; end: number } | undefined {
  let text = '';
  let at = open.end;
  let depth = 0;
  for (;;) {
    const lt = xml.indexOf('<', at);
    if (lt < 0) return undefined;
    text += decode(xml.slice(at, lt));
    if (xml.startsWith(CDATA_OPEN, lt)) {
      const end = xml.indexOf(']]>', lt + CDATA_OPEN.length);
      if (end < 0) return undefined;
      text += xml.slice(lt + CDATA_OPEN.length, end);
      at = end + 3;
      continue;
    }
    const skipped = skipNonElement(xml, lt);
    if (skipped === -1) return undefined;
    if (skipped !== lt) {
      at = skipped;
      continue;
    }
    const tag = tagAt(xml, lt);
    if (!tag) return undefined;
    at = tag.end;
    if (tag.qualified !== open.qualified || tag.selfClosing) continue;
    if (!tag.closing) depth += 1;
    else if (depth === 0) return { text, end: tag.end };
    else depth -= 1;
  }
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|[a-z]{2,4});/g, (whole, entity: string) => {
    if (entity.startsWith('#x')) return codePoint(parseInt(entity.slice(2), 16), whole);
    if (entity.startsWith('#')) return codePoint(parseInt(entity.slice(1), 10), whole);
    return ENTITIES[entity] ?? whole;
  });
}

const codePoint = (n: number, whole: string) => (n <= 0x10ffff ? String.fromCodePoint(n) : whole);
