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

export const ENCODINGS: readonly Encoding[] = [
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
