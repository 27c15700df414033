/**
 * Base64 and base64url: runs of at least `min` bytes' worth, line breaks inside them ignored (wrapped at 76 columns,
 * `\r\n`), read from where the run starts, so a secret at any byte offset of the stream is whole.
 */
import { Builder, INITIAL_CAPACITY, MIN_BYTES, forEachRun, repeats, unitsOf, type Decoder } from './view.js';

/** The 6-bit value of a base64 or base64url character, or -1. */
const SEXTET = new Int8Array(128).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'].entries()) {
  SEXTET[c.charCodeAt(0)] = i;
}
SEXTET[0x2b] = SEXTET[0x2d] = 62; // + -
SEXTET[0x2f] = SEXTET[0x5f] = 63; // / _
const sextetAt = (text: string, i: number) => {
  const unit = text.charCodeAt(i);
  return unit < 128 ? SEXTET[unit]! : -1;
};
const BASE64_UNITS = unitsOf('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_');

/**
 * Runs of base64 (either alphabet) decoded from where each starts, one unit per byte; a line break inside a run (LF
 * or CRLF followed by more of it) is passed over. Each byte maps to the characters that hold its bits.
 */
export const decodeBase64: Decoder = (view, min) => {
  const { text } = view;
  const n = text.length;
  const charsOf = (bytes: number) => Math.ceil((bytes * 8) / 6);
  let builder: Builder | undefined;
  let positions: Int32Array | undefined; // of the current run's characters
  // A run long enough starts a stream, which may go on over line breaks.
  forEachRun(text, BASE64_UNITS, charsOf(min), charsOf(MIN_BYTES), (i, _, edge) => {
    const minChars = charsOf(edge ? MIN_BYTES : min);
    // Room for a run as long as it turns out to be: a 4 MiB text is no run of 4 MiB.
    positions ??= new Int32Array(Math.min(n, INITIAL_CAPACITY));
    let count = 0;
    let secondLine = -1;
    let k = i;
    for (;;) {
      if (sextetAt(text, k) !== -1) {
        if (count === positions.length) positions = grown(positions);
        positions[count++] = k++;
        continue;
      }
      let next = k;
      if (text.charCodeAt(next) === 0x0d) next += 1;
      if (text.charCodeAt(next) === 0x0a) next += 1;
      if (next === k || sextetAt(text, next) === -1) break;
      if (secondLine === -1) secondLine = count;
      k = next;
    }
    if (count >= minChars && !repeats(text, i, k)) {
      builder ??= new Builder(view, 2 * n); // a run may be read twice: 3/4 of a unit per character each time
      addBytes(builder, text, positions, 0, count);
      // A wrapped stream may start on the second line of the run (after a heading such as `-----BEGIN X-----`,
      // whose dashes are base64url): read from there too.
      if (secondLine > 0 && count - secondLine >= minChars) addBytes(builder, text, positions, secondLine, count);
    }
    return k;
  });
  return builder?.view();
};

/** The same positions in an array of twice the room. */
function grown(positions: Int32Array): Int32Array {
  const more = new Int32Array(positions.length * 2);
  more.set(positions);
  return more;
}

/** The bytes of the base64 characters at positions [from, to), each mapped to the characters that hold its bits. */
function addBytes(builder: Builder, text: string, positions: Int32Array, from: number, to: number): void {
  builder.addBreak(positions[from]!);
  let value = 0;
  let bits = 0;
  let byte = 0;
  for (let c = from; c < to; c += 1) {
    value = ((value << 6) | sextetAt(text, positions[c]!)) & 0xfff;
    bits += 6;
    if (bits < 8) continue;
    bits -= 8;
    // Byte j is bits [8j, 8j + 8) of the stream: characters floor(8j / 6) to floor((8j + 7) / 6).
    builder.add((value >> bits) & 0xff, positions[from + Math.floor((8 * byte) / 6)]!, positions[c]! + 1);
    byte += 1;
  }
}
