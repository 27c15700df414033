/**
 * Random spellings of secrets, for the property tests of the redactor (test/util/redact-spellings.test.ts) and of the
 * egress channels (test/e2e/egress-property.test.ts): seeded, so that every run draws the same cases; each encoding
 * can be read back, so that a test sees what is left of a secret after redaction.
 */

import { mulberry32 } from '../../src/sandbox/textgen/random.js';

const unicodeEscapes = (text: string) =>
  Array.from({ length: text.length }, (_, i) => `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/** A seeded generator (the sandbox's mulberry32), so that every run draws the same cases. */
export const seeded = mulberry32;

export type Random = () => number;
export const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const SECRET_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789+/=_-#%&."\\:';
const WORDS = ['the', 'upstream', 'said', 'error', 'code', '42', 'retry', 'later', 'id:', 'value', '(ok)', 'é', '—'];

export function randomSecret(random: Random): string {
  const length = 12 + Math.floor(random() * 28);
  return Array.from({ length }, () => pick(random, [...SECRET_CHARS])).join('');
}
const words = (random: Random, count: number) => Array.from({ length: count }, () => pick(random, WORDS)).join(' ');

/** HTML5 names the test spells characters with (a subset of what the redactor reads). */
const HTML_NAMES: Record<string, string> = {
  '+': 'plus',
  '/': 'sol',
  '=': 'equals',
  _: 'lowbar',
  '#': 'num',
  '%': 'percnt',
  '&': 'amp',
  '.': 'period',
  '"': 'quot',
  '\\': 'bsol',
  ':': 'colon',
};
const NAMED_BACK = new Map(Object.entries(HTML_NAMES).map(([char, name]) => [name, char]));

/** One encoding: how to spell a text, and how to read back what is left of it after redaction. */
export interface Encoding {
  name: string;
  encode(text: string, random: Random): string;
  decode(text: string): string;
}

const hexRun = /(?:[0-9a-fA-F]{2}[ :]?){6,}/g;
const base64Run = /[A-Za-z0-9+/_-]{4,}(?:\r?\n[A-Za-z0-9+/_-]+)*=*/g;
const latin1 = (bytes: Buffer) => bytes.toString('latin1');

const ENCODINGS: readonly Encoding[] = [
  {
    name: 'percent',
    encode: (text) => [...Buffer.from(text, 'latin1')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
    decode: (text) => text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
  },
  {
    name: 'HTML references',
    encode: (text, random) =>
      [...text]
        .map((c) => {
          const name = HTML_NAMES[c];
          if (name && random() < 0.7) return `&${name};`;
          return random() < 0.5 ? `&#${c.charCodeAt(0)};` : `&#x${c.charCodeAt(0).toString(16)};`;
        })
        .join(''),
    decode: (text) =>
      text.replace(/&(#x[0-9a-f]+|#\d+|[A-Za-z]+);/gi, (all, ref: string) => {
        if (ref.startsWith('#x') || ref.startsWith('#X')) return String.fromCharCode(parseInt(ref.slice(2), 16));
        if (ref.startsWith('#')) return String.fromCharCode(Number(ref.slice(1)));
        return NAMED_BACK.get(ref) ?? all;
      }),
  },
  {
    name: 'JSON string',
    encode: (text) => JSON.stringify(text).slice(1, -1),
    decode: (text) =>
      text.replace(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g, (all, e: string) =>
        e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (JSON.parse(`"${all}"`) as string),
      ),
  },
  {
    name: '\\u escapes',
    encode: (text) => unicodeEscapes(text),
    decode: (text) => text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
  },
  {
    name: '\\x escapes',
    encode: (text) => [...text].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''),
    decode: (text) => text.replace(/\\x([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
  },
  {
    name: 'octal escapes',
    encode: (text) => [...text].map((c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`).join(''),
    decode: (text) => text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))),
  },
  {
    name: 'hex',
    encode: (text, random) => {
      const hex = Buffer.from(text, 'latin1').toString('hex');
      const cased = random() < 0.5 ? hex : hex.toUpperCase();
      return cased.match(/../g)!.join(pick(random, ['', ' ', ':']));
    },
    decode: (text) => text.replace(hexRun, (run) => latin1(Buffer.from(run.replace(/[ :]/g, ''), 'hex'))),
  },
  {
    name: 'base64, wrapped',
    encode: (text, random) => {
      const alphabet = random() < 0.5 ? 'base64' : 'base64url';
      const encoded = Buffer.from(text, 'latin1').toString(alphabet);
      return random() < 0.5 ? encoded : encoded.replace(/.{76}(?=.)/g, `$&${pick(random, ['\n', '\r\n'])}`);
    },
    decode: (text) =>
      text.replace(base64Run, (run) =>
        latin1(Buffer.from(run.replace(/\s/g, ''), run.includes('_') || run.includes('-') ? 'base64url' : 'base64')),
      ),
  },
  {
    name: 'UTF-16LE as text',
    encode: (text) => latin1(Buffer.from(text, 'utf16le')),
    decode: (text) => text.replaceAll('\u0000', ''),
  },
  {
    name: 'quoted-printable',
    encode: (text) =>
      [...Buffer.from(text, 'latin1')]
        .map((b) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`)
        .join('')
        .replace(/(.{72})(?=.)/g, '$1=\r\n'),
    decode: (text) =>
      text
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
  },
];

export interface Case {
  secret: string;
  layers: Encoding[];
  text: string;
  before: string;
  after: string;
}

/** A secret (or another string) spelled through one to three encodings, each layer inside words of its own. */
export function spell(random: Random, inner: string): Omit<Case, 'secret'> {
  const layers: Encoding[] = [];
  let text = inner;
  const depth = 1 + Math.floor(random() * 3);
  for (let i = 0; i < depth; i += 1) {
    const encoding = pick(random, ENCODINGS);
    layers.push(encoding);
    text = encoding.encode(random() < 0.5 ? text : `${words(random, 2)} ${text} ${words(random, 2)}`, random);
  }
  const before = `${words(random, 3)} `;
  const after = ` ${words(random, 3)}`;
  return { layers, text: `${before}${text}${after}`, before, after };
}

/** What is left of a secret after decoding `text` the way it was encoded (the innermost layer last). */
export const decodeAll = (text: string, layers: readonly Encoding[]) =>
  layers.reduceRight((decoded, layer) => layer.decode(decoded), text);

// ------------------------------------------------------------------------------ the forms of issue 32 (H1 and L1)

const RFC4648_BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** RFC 4648 base32, with its padding. */
function base32(bytes: Buffer): string {
  let bits = '';
  for (const byte of bytes) bits += byte.toString(2).padStart(8, '0');
  let out = '';
  for (let at = 0; at < bits.length; at += 5) out += RFC4648_BASE32[parseInt(bits.slice(at, at + 5).padEnd(5, '0'), 2)];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

/** Adobe's ASCII85 (`z` for a group of zeros) or, with the Z85 digits, ZeroMQ's; a short last group as specified. */
function base85(bytes: Buffer, digits = ASCII85_DIGITS): string {
  let out = '';
  for (let at = 0; at < bytes.length; at += 4) {
    const group = Buffer.alloc(4);
    bytes.copy(group, 0, at, Math.min(at + 4, bytes.length));
    const taken = Math.min(4, bytes.length - at);
    let value = group.readUInt32BE(0);
    if (value === 0 && taken === 4 && digits === ASCII85_DIGITS) {
      out += 'z';
      continue;
    }
    const chars: string[] = [];
    for (let k = 0; k < 5; k += 1) {
      chars.unshift(digits[value % 85]!);
      value = Math.floor(value / 85);
    }
    out += chars.slice(0, taken + 1).join('');
  }
  return out;
}
const ASCII85_DIGITS = Array.from({ length: 85 }, (_, i) => String.fromCharCode(33 + i)).join('');
const Z85_DIGITS = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';

const signed = (byte: number) => (byte > 127 ? byte - 256 : byte);
const rot13 = (text: string) =>
  text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
const fullwidth = (text: string) =>
  [...text].map((c) => (c > ' ' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');

/** A secret spelled one way of issue 32's, inside other bytes where the form has any (at a byte offset of `pad`). */
export interface Form {
  name: string;
  spell(secret: string, pad?: number): string;
}
const around = (secret: string, pad: number) =>
  Buffer.concat([Buffer.from('x'.repeat(pad)), Buffer.from(secret, 'utf8'), Buffer.from(' tail')]);

export const FORMS: readonly Form[] = [
  { name: "Node's Buffer as JSON", spell: (s) => JSON.stringify({ type: 'Buffer', data: [...Buffer.from(s)] }) },
  { name: "Go's []byte", spell: (s) => `[${[...Buffer.from(s)].join(' ')}]` },
  { name: "Java's byte[] (signed)", spell: (s) => `[${[...Buffer.from(s)].map(signed).join(', ')}]` },
  { name: "Go's %o (octal)", spell: (s) => `[${[...Buffer.from(s)].map((b) => b.toString(8)).join(' ')}]` },
  { name: 'C octal literals', spell: (s) => `{${[...Buffer.from(s)].map((b) => `0${b.toString(8)}`).join(', ')}}` },
  { name: 'C hex literals', spell: (s) => `{${[...Buffer.from(s)].map((b) => `0x${b.toString(16)}`).join(',')}}` },
  { name: 'base32', spell: (s, pad = 0) => base32(around(s, pad)) },
  { name: 'base32 in lower case', spell: (s, pad = 0) => base32(around(s, pad)).toLowerCase() },
  { name: 'ASCII85', spell: (s, pad = 0) => `<~${base85(around(s, pad))}~>` },
  { name: 'Z85', spell: (s, pad = 0) => base85(around(s, pad), Z85_DIGITS) },
  { name: 'reversed', spell: (s) => [...s].reverse().join('') },
  { name: 'ROT13', spell: rot13 },
  { name: 'spaced out', spell: (s) => [...s].join(' ') },
  { name: 'zero-width spaces between', spell: (s) => [...s].join('\u200b') },
  { name: 'zero-width joiners between', spell: (s) => [...s].join('\u200d') },
  { name: 'soft hyphens between', spell: (s) => [...s].join('\u00ad') },
  { name: 'fullwidth', spell: fullwidth },
  { name: 'wrapped at 7 columns', spell: (s) => s.replace(/.{7}(?=.)/g, '$&\n') },
  { name: 'wrapped with CRLF and an indent', spell: (s) => s.replace(/.{10}(?=.)/g, '$&\r\n    ') },
  { name: 'reversed base64', spell: (s) => [...Buffer.from(s).toString('base64')].reverse().join('') },
];
