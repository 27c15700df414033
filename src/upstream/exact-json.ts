/**
 * JSON.parse that keeps every number exact. JavaScript numbers are doubles: an integer beyond 2^53-1 (a 64-bit total),
 * `9223372036854775807.0`, `1e400` (Infinity, which JSON.stringify writes as null) or a fraction of more digits than a
 * double holds would each come out another value. Such a literal is handed on as a string instead: an integer (an
 * integral one written with a fraction of zeros too, `…807.0`) as its digits, any other as written. A Float field that
 * receives such a string sets it aside under `offSpec`, exact. JSON has no other way to hand such a value on.
 *
 * Node 20's JSON.parse gives a reviver no source text (Node 22 does), so one pass over the text quotes such literals
 * before parsing: linear in the text, and skipped unless the text has 16 digits in a row (a dot among them allowed)
 * or an exponent of three digits: every other number is a double's own.
 */
export function parseJsonExact(text: string): unknown {
  if (!MAY_BE_INEXACT.test(text)) return JSON.parse(text);
  const quoted = quoteInexactNumbers(text);
  if (quoted === text) return JSON.parse(text);
  try {
    return JSON.parse(quoted);
  } catch {
    // Broken JSON: the error should name the text as received.
    return JSON.parse(text);
  }
}

const MAY_BE_INEXACT = /(?:\d\.?){16}|[eE][+-]?\d{3}/;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** What may follow the integer part of a number that is not an integer: `.`, `e`, `E`. */
const isFloatMark = (c: number) => c === 0x2e || c === 0x65 || c === 0x45;
/** The characters of the rest of such a number: digits, `.`, `e`, `E`, `+`, `-`. */
const inFloat = (c: number) => isDigit(c) || isFloatMark(c) || c === MINUS || c === 0x2b;

/** The text with every number literal outside strings that a double does not hold exactly wrapped in quotes. */
function quoteInexactNumbers(text: string): string {
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
      const integer = !(i < text.length && isFloatMark(text.charCodeAt(i)));
      if (!integer) while (i < text.length && inFloat(text.charCodeAt(i))) i++;
      const literal = text.slice(start, i);
      // An integral number, with a fraction of zeros or none, is exact up to 2^53-1, as its digits beyond.
      const digits = integer ? literal : integralDigits(literal);
      const exact = digits ? digits.length <= 15 || Number.isSafeInteger(Number(digits)) : isExactFloat(literal);
      if (!exact) {
        parts.push(text.slice(copied, start), '"', digits ?? literal, '"');
        copied = i;
      }
    } else i++;
  }
  if (copied === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}

/** Whether the double a literal with a fraction or an exponent reads as is the very number it writes. */
function isExactFloat(literal: string): boolean {
  const n = Number(literal);
  if (!Number.isFinite(n)) return !/^-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?$/.test(literal); // not a number: JSON.parse says
  // Fifteen significant digits or fewer, and no exponent: a double holds it (as the shortest form it prints).
  if (!/[eE]/.test(literal) && literal.replace(/^-?0*|\.|0*$/g, '').length <= 15) return true;
  return canonical(literal) === canonical(String(n));
}

/** A decimal number as `digits e exponent`, without leading or trailing zeros: equal numbers, equal forms. */
function canonical(literal: string): string {
  const match = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!match) return literal;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let power = Number(exponent) - fraction.length;
  const trimmed = digits.replace(/0+$/, '');
  power += digits.length - trimmed.length;
  digits = trimmed;
  return digits === '' ? '0' : `${sign}${digits}e${power}`;
}

/** `9223372036854775807.0` as `9223372036854775807`: an integral number written with a fraction of zeros. */
function integralDigits(literal: string): string | undefined {
  return /^(-?\d+)\.0*$/.exec(literal)?.[1];
}
