/**
 * E5's answers that are not plain JSON: JSONP (`name({...})`) and XML. Both carry the maps `status`, which decides
 * whether the answer is a success, so it is read from them as from JSON. Linear in the text: indexOf, no
 * backtracking regex over the body.
 */

/** The JSON inside a JSONP answer (`cb({...})`, `/**\/ cb({...});`), or undefined when the text is not one. */
export function jsonpContent(text: string): string | undefined {
  const head = /^\s*(?:\/\*\*\/\s*)?[^\s()]{1,100}\s*\(/.exec(text.slice(0, 200));
  if (!head) return undefined;
  let end = text.trimEnd();
  if (end.endsWith(';')) end = end.slice(0, -1).trimEnd();
  if (!end.endsWith(')')) return undefined;
  return end.slice(head[0].length, -1);
}

export interface XmlStatus {
  code: string;
  name?: string;
  message?: string;
}

/**
 * The `<status>` of an XML answer: its `<code>`, `<name>` and `<message>` (the spec gives the JSON members; the XML
 * layout is not shown, so only the first status element with a code child is read, wherever it is). Undefined when
 * there is none.
 */
export function xmlStatus(xml: string): XmlStatus | undefined {
  const status = element(xml, 'status');
  if (status === undefined) return undefined;
  const code = element(status, 'code')?.trim();
  if (!code) return undefined;
  return { code, name: element(status, 'name')?.trim(), message: element(status, 'message')?.trim() };
}

/** The text content of the first `<name>` element of `xml` (entities and CDATA decoded); '' when it is empty. */
function element(xml: string, name: string): string | undefined {
  let from = 0;
  for (;;) {
    const at = xml.indexOf(`<${name}`, from);
    if (at < 0) return undefined;
    const after = xml.charAt(at + name.length + 1);
    from = at + name.length + 1;
    if (after !== '>' && after !== '/' && !/\s/.test(after)) continue; // e.g. <statusCode> when looking for <status>
    const open = xml.indexOf('>', from);
    if (open < 0) return undefined;
    if (xml.charAt(open - 1) === '/') return '';
    const close = xml.indexOf(`</${name}>`, open);
    if (close < 0) return undefined;
    return decode(xml.slice(open + 1, close));
  }
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*)\]\]>\s*$/.exec(text);
  if (cdata) return cdata[1]!;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|[a-z]{2,4});/g, (whole, entity: string) => {
    if (entity.startsWith('#x')) return codePoint(parseInt(entity.slice(2), 16), whole);
    if (entity.startsWith('#')) return codePoint(parseInt(entity.slice(1), 10), whole);
    return ENTITIES[entity] ?? whole;
  });
}

const codePoint = (n: number, whole: string) => (n <= 0x10ffff ? String.fromCodePoint(n) : whole);
