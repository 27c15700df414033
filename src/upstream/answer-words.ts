/**
 * How the stages of an answer's chain (decode, parse, envelope, read) quote the upstream in a failure's message: short
 * and on one line. The exchange redacts the body before any stage reads it.
 */

/** A short, single-line, tag-free excerpt of a body for error messages. */
export function snippet(text: string, max = 300): string {
  const flat = text
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * A value of an upstream's error body, as words for a message: text as is, anything else as JSON, cut to a size a
 * message can carry (a megabyte of `details` must not become a megabyte of tool error).
 */
export function told(value: unknown, max = 500): string {
  if (value === undefined || value === null) return '';
  return snippet(typeof value === 'string' ? value : JSON.stringify(value), max);
}
