/**
 * The spellings of a secret looked for in every view (its encodings that no decoder reads back: the views read the
 * others). As text and as its UTF-8 bytes (for byte views, when it is not ASCII); as hex of those bytes; as base64,
 * base32, ASCII85 and Z85 at each byte offset within a longer blob, with the characters around that share its bits;
 * reversed (the text, its hex and its base64); and in ROT13. All of them folded, as the views are searched.
 */
import { foldSecret } from './fold.js';

export interface Spelling {
  readonly text: string;
  /** Units on either side that still carry bits of the secret (a blob's characters it shares with its neighbours). */
  readonly before: number;
  readonly after: number;
  /** Which units those may be (the encoding's alphabet, folded); undefined when there are none. */
  readonly around: Uint8Array | undefined;
}

/** Spellings shorter than this are not looked for: in an encoded blob a few characters turn up by chance. */
const MIN_SPELLING = 8;

const alphabet = (chars: string): Uint8Array => {
  const set = new Uint8Array(128);
  for (const c of chars.toLowerCase()) set[c.charCodeAt(0)] = 1;
  return set;
};
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const ASCII85 = Array.from({ length: 85 }, (_, i) => String.fromCharCode(33 + i)).join('');
const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';
// A JSON string's quote and backslash are never taken with a match: the text around stays valid JSON.
const AROUND = {
  base64: alphabet(BASE64),
  base32: alphabet(BASE32),
  ascii85: alphabet(ASCII85.replace(/["\\]/g, '')),
  z85: alphabet(Z85),
};

export function spellingsOf(secret: string): Spelling[] {
  const bytes = Buffer.from(secret, 'utf8');
  const plain = foldSecret(secret);
  const asBytes = foldSecret(bytes.toString('latin1'));
  const hex = bytes.toString('hex');
  const base64 = groupSpellings(
    bytes,
    6,
    3,
    (padded) => [padded.toString('base64url'), padded.toString('base64')],
    AROUND.base64,
  );
  const all: Spelling[] = [
    ...[plain, asBytes, hex, rot13(plain)].map((text) => bare(text)),
    ...base64,
    ...groupSpellings(bytes, 5, 5, (padded) => [base32(padded)], AROUND.base32),
    ...groupSpellings(bytes, 0, 4, (padded) => [base85(padded, ASCII85)], AROUND.ascii85),
    ...groupSpellings(bytes, 0, 4, (padded) => [base85(padded, Z85)], AROUND.z85),
    ...[plain, asBytes, hex].map((text) => bare(reversed(text))),
    ...base64.map((s) => ({ ...s, text: reversed(s.text), before: s.after, after: s.before })),
  ];
  const byText = new Map<string, Spelling>();
  for (const spelling of all) {
    if (spelling.text.length < MIN_SPELLING) continue;
    const seen = byText.get(spelling.text);
    byText.set(
      spelling.text,
      seen
        ? { ...seen, before: Math.max(seen.before, spelling.before), after: Math.max(seen.after, spelling.after) }
        : spelling,
    );
  }
  return [...byText.values()];
}

const bare = (text: string): Spelling => ({ text, before: 0, after: 0, around: undefined });
const reversed = (text: string) => [...text].reverse().join('');
const rot13 = (text: string) =>
  text.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 0x61 + 13) % 26) + 0x61));

/**
 * The secret's bytes inside a longer blob start at any byte offset within a group of `group` bytes. For each, the
 * characters that hold only bits of the secret are the same whatever surrounds it: those are looked for, and the
 * characters on each side that hold some of its bits are redacted with them. `bits` is what one character holds
 * (6 for base64, 5 for base32); 0 for the base85 encodings, where a group of 4 bytes is 5 characters together.
 */
function groupSpellings(
  bytes: Buffer,
  bits: number,
  group: number,
  encode: (padded: Buffer) => string[],
  around: Uint8Array,
): Spelling[] {
  const out: Spelling[] = [];
  for (let offset = 0; offset < group; offset += 1) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    let first: number;
    let last: number;
    let before: number;
    let after: number;
    if (bits > 0) {
      const startBit = 8 * offset;
      const endBit = 8 * (offset + bytes.length);
      [first, last] = [Math.ceil(startBit / bits), Math.floor(endBit / bits)];
      [before, after] = [startBit % bits === 0 ? 0 : 1, endBit % bits === 0 ? 0 : 1];
    } else {
      const groups = [Math.ceil(offset / group), Math.floor((offset + bytes.length) / group)];
      [first, last] = [groups[0]! * 5, groups[1]! * 5];
      [before, after] = [offset % group === 0 ? 0 : 5, (offset + bytes.length) % group === 0 ? 0 : 5];
    }
    for (const encoded of encode(padded)) {
      out.push({ text: foldSecret(encoded.slice(first, last)), before, after, around });
    }
  }
  return out;
}

function base32(bytes: Buffer): string {
  let out = '';
  let value = 0;
  let bits = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += BASE32[(value >> bits) & 31];
    }
  }
  return bits > 0 ? out + BASE32[(value << (5 - bits)) & 31] : out;
}

/** Whole groups of four bytes only (what a spelling is cut from); 'z' and 'y' shorthands aside. */
function base85(bytes: Buffer, digits: string): string {
  let out = '';
  for (let at = 0; at + 4 <= bytes.length; at += 4) {
    let value = bytes.readUInt32BE(at);
    let group = '';
    for (let k = 0; k < 5; k += 1) {
      group = digits[value % 85]! + group;
      value = Math.floor(value / 85);
    }
    out += group;
  }
  return out;
}
