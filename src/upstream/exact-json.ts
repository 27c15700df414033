/**
 * JSON.parse that keeps every integer exact: an integer literal beyond 2^53-1 (where JavaScript numbers stop being
 * exact, e.g. a 64-bit total) becomes a string of its digits instead of a rounded number. JSON has no other way to
 * hand such a value on. Node 20's JSON.parse gives a reviver no source text (Node 22 does), so one pass over the text
 * quotes such literals before parsing: linear in the text, and skipped unless the text has a run of 16 digits (every
 * integer of 15 digits or fewer is exact).
 */
export function parseJsonExact(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  const quoted = quoteLongIntegers(text);
  if (quoted === text) return JSON.parse(text);
  try {
    return JSON.parse(quoted);
  } catch {
    // Broken JSON: the error should name the text as received.
    return JSON.parse(text);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** What may follow the integer part of a number that is not an integer: `.`, `e`, `E`. */
const isFloatMark = (c: number) => c === 0x2e || c === 0x65 || c === 0x45;
/** The characters of the rest of such a number: digits, `.`, `e`, `E`, `+`, `-`. */
const inFloat = (c: number) => isDigit(c) || isFloatMark(c) || c === MINUS || c === 0x2b;

/** The text with every integer literal outside strings that is not a safe integer wrapped in quotes. */
function quoteLongIntegers(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string, escapes included.
      i++;
      while (i < text.length) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i += 2;
        else {
          i++;
          if (d === QUOTE) break;
        }
      }
    } else if (c === MINUS || isDigit(c)) {
      const start = i;
      i++;
      while (i < text.length && isDigit(text.charCodeAt(i))) i++;
      if (i < text.length && isFloatMark(text.charCodeAt(i))) {
        // A Float: JSON.parse reads it as the spec's Float fields mean it.
        while (i < text.length && inFloat(text.charCodeAt(i))) i++;
        continue;
      }
      const literal = text.slice(start, i);
      if (literal.length > 15 && !Number.isSafeInteger(Number(literal))) {
        parts.push(text.slice(copied, start), '"', literal, '"');
        copied = i;
      }
    } else i++;
  }
  if (copied === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}
