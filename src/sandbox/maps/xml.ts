/**
 * XML rendering of an E5 answer (the spec does not show the upstream layout): the JSON document under a
 * `<response>` root, one element per member, array elements named by ARRAY_ITEM (`results` -> `result`).
 */
const ARRAY_ITEM: Record<string, string> = { results: 'result' };

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function element(name: string, value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    const item = ARRAY_ITEM[name] ?? 'item';
    if (value.length === 0) return `${indent}<${name}/>`;
    const children = value.map((v) => element(item, v, `${indent}  `)).join('\n');
    return `${indent}<${name}>\n${children}\n${indent}</${name}>`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return `${indent}<${name}/>`;
    const children = entries.map(([k, v]) => element(k, v, `${indent}  `)).join('\n');
    return `${indent}<${name}>\n${children}\n${indent}</${name}>`;
  }
  const text = value === null || value === undefined ? '' : String(value);
  return text === '' ? `${indent}<${name}/>` : `${indent}<${name}>${escapeXml(text)}</${name}>`;
}

export function toXml(document: Record<string, unknown>, root = 'response'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(root, document, '')}\n`;
}
