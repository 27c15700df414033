/**
 * Every spelling issue 28 found a secret reaching the client in, one test each; then a seeded property test that
 * composes one to three random encodings of random secrets inside random text and checks that, decoded again the
 * same way, the output holds no secret, and that text without a secret comes out as it went in.
 */
import { describe, expect, it } from 'vitest';
import { MIN_PART, MIN_SECRET, Redactor } from '../../src/util/redact.js';
import { growthFactor, LINEAR } from '../helpers/cost.js';
import { decodeAll, pick, randomSecret, seeded, spell } from '../helpers/spellings.js';

const SECRET = 'Gw+Key/Sec_ret=42#x&y';
const redactor = new Redactor([SECRET, 'other-secret-Pz6Wq3Ys']);

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const percent = (text: string) =>
  [...utf8(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
const unicodeEscapes = (text: string) =>
  Array.from({ length: text.length }, (_, i) => `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
const base64Wrapped = (bytes: Buffer, eol: string) => bytes.toString('base64').replace(/.{76}(?=.)/g, `$&${eol}`);

/** `hexdump -C`: offset, sixteen bytes in two groups of eight, the text column between bars. */
function hexdumpC(bytes: Buffer): string {
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const row = [...bytes.subarray(at, at + 16)];
    const hex = row.map((b) => b.toString(16).padStart(2, '0'));
    const columns = `${hex.slice(0, 8).join(' ')}  ${hex.slice(8).join(' ')}`.padEnd(48);
    const text = row.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${at.toString(16).padStart(8, '0')}  ${columns}  |${text}|`);
  }
  return lines.join('\n');
}
/** `xxd`: offset and colon, eight groups of two bytes, the text column after two spaces. */
function xxd(bytes: Buffer): string {
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const row = [...bytes.subarray(at, at + 16)];
    const groups = (
      row
        .map((b) => b.toString(16).padStart(2, '0'))
        .join('')
        .match(/.{1,4}/g) ?? []
    ).join(' ');
    const text = row.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${at.toString(16).padStart(8, '0')}: ${groups.padEnd(39)}  ${text}`);
  }
  return lines.join('\n');
}

describe('Redactor, every spelling of issue 28', () => {
  const echoed = (spelled: string) => redactor.redact(`{"message":"echo ${spelled} end"}`);

  it.each([
    [
      'HTML5 named references (&plus; &sol; &lowbar; &equals; &num; &amp;)',
      'Gw&plus;Key&sol;Sec&lowbar;ret&equals;42&num;x&amp;y',
    ],
    ['HTML5 named references mixed with numeric ones', 'G&#119;&plus;Key&#x2F;Sec&UnderBar;ret&#61;42&num;x&AMP;y'],
    ['double URL-encoding (%252B)', encodeURIComponent(encodeURIComponent(SECRET))],
    ['triple URL-encoding', encodeURIComponent(encodeURIComponent(encodeURIComponent(SECRET)))],
    ['double JSON encoding of \\u escapes (\\\\u0041)', JSON.stringify(unicodeEscapes(SECRET)).slice(1, -1)],
    ['\\x escapes', [...SECRET].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')],
    ['octal escapes', [...SECRET].map((c) => `\\${c.charCodeAt(0).toString(8)}`).join('')],
    ['quoted-printable', [...utf8(SECRET)].map((b) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')],
    ['quoted-printable with soft line breaks', 'Gw+Key/Sec=\r\n_ret=3D42#=\r\nx&y'],
    ['UTF-16LE bytes as text', [...SECRET].map((c) => `${c}\u0000`).join('')],
    ['UTF-16BE bytes, JSON-escaped', [...SECRET].map((c) => `\\u0000${c}`).join('')],
    ['UTF-16LE in hex', Buffer.from(SECRET, 'utf16le').toString('hex')],
    ['hex with colons, upper case', utf8(SECRET).toString('hex').toUpperCase().match(/../g)!.join(':')],
    ['hex with spaces', utf8(SECRET).toString('hex').match(/../g)!.join(' ')],
  ])('finds it as %s', (_, spelled) => {
    expect(echoed(spelled)).toBe('{"message":"echo [redacted] end"}');
  });

  it('finds it double JSON-encoded inside a JSON string value, and \\uXXXX-escaped in a JSON answer', () => {
    const inner = JSON.stringify({ error: { detail: `key ${SECRET} refused` } });
    const twice = JSON.stringify({ upstream: inner });
    expect(redactor.redact(twice)).not.toContain(JSON.stringify(SECRET).slice(1, -1));
    expect(JSON.parse(JSON.parse(redactor.redact(twice)).upstream)).toEqual({
      error: { detail: 'key [redacted] refused' },
    });
    const escaped = `{"items":[{"name":"${unicodeEscapes(SECRET)}"}]}`;
    expect(redactor.redact(escaped)).toBe('{"items":[{"name":"[redacted]"}]}');
  });

  // A secret inside a base64 stream starts at bit 0, 8 or 16 of a 24-bit group; wrapped every 76 characters, with
  // CRLF or LF, it may also straddle a line break.
  const long = `${SECRET}-and-more-of-it-9f8e7d6c5b4a39281706`;
  for (const eol of ['\r\n', '\n']) {
    for (let before = 0; before < 60; before += 1) {
      it(`finds a long secret in base64 wrapped at 76 columns with ${JSON.stringify(eol)}, after ${before} bytes`, () => {
        const r = new Redactor([long]);
        const stream = base64Wrapped(utf8(`${'p'.repeat(before)}${long}${'s'.repeat(before % 5)}`), eol);
        const out = r.redact(`-----BEGIN DATA-----${eol}${stream}${eol}-----END DATA-----`);
        expect(out).toContain('[redacted]');
        const decoded = Buffer.from(out.replace(/\[redacted\]|-----[A-Z ]+-----|\s/g, ''), 'base64').toString('latin1');
        expect(decoded).not.toContain(long.slice(0, MIN_PART));
        expect(decoded).not.toContain(long.slice(-MIN_PART));
      });
    }
    if (eol === '\n') break; // one alignment sweep per line ending is enough beyond this point
  }

  it.each([
    ['hexdump -C', hexdumpC],
    ['xxd', xxd],
  ])('finds it in a %s, its text column included', (_, dump) => {
    const r = new Redactor([long]);
    const text = `upstream said:\n${dump(utf8(`GET /x?key=${long} HTTP/1.1\r\n`))}\nend of dump`;
    const out = r.redact(text);
    expect(out.startsWith('upstream said:\n')).toBe(true);
    expect(out.endsWith('\nend of dump')).toBe(true);
    const bytes = utf8(long);
    for (let at = 0; at + MIN_PART <= long.length; at += 1) {
      expect(out, `piece at ${at}`).not.toContain(long.slice(at, at + MIN_PART));
      expect(out.replace(/[\s:]/g, '')).not.toContain(bytes.subarray(at, at + MIN_PART).toString('hex'));
    }
  });

  it('leaves no part of a secret at either end of a cut excerpt, and none in the middle of text whole', () => {
    const cut = `${SECRET.slice(5)} answered, then ${SECRET.slice(0, 12)}…`;
    expect(redactor.redact(cut)).toBe('[redacted] answered, then [redacted]…');
    // In the middle of a text, a piece of a secret is only a coincidence.
    const middle = `the text ${SECRET.slice(0, 12)} goes on`;
    expect(redactor.redact(middle)).toBe(middle);
    // Cut inside a base64 run at the end of the text.
    const blob = utf8(`{"key":"${long}"}`).toString('base64');
    const r = new Redactor([long]);
    const out = r.redact(`token: ${blob.slice(0, 40)}`);
    expect(
      Buffer.from(out.slice('token: '.length).replace('[redacted]', ''), 'base64').toString('latin1'),
    ).not.toContain(long.slice(0, MIN_PART));
  });

  it(`looks for secrets shorter than ${MIN_SECRET} characters only as they are, in any case`, () => {
    const r = new Redactor(['k9x7']);
    expect(r.redact('a k9x7 b K9X7 c')).toBe('a [redacted] b [redacted] c');
    // Their encodings turn up by chance in ordinary text: not looked for.
    const hex = utf8('k9x7').toString('hex');
    expect(r.redact(`id ${hex} and ${percent('k9x7')}`)).toBe(`id ${hex} and ${percent('k9x7')}`);
  });

  it('learns secrets added later (a call signature) without losing its own', () => {
    const r = new Redactor([SECRET]);
    const signature = Buffer.from('hmac-of-one-call-0123456789').toString('base64');
    expect(r.redact(`sig=${percent(signature)}`)).toBe(`sig=${percent(signature)}`);
    r.add([signature]);
    expect(r.redact(`sig=${percent(signature)} and ${SECRET}`)).toBe('sig=[redacted] and [redacted]');
  });
});

// ------------------------------------------------------------------------------------------------ property test

describe('Redactor, a seeded property test of composed encodings', () => {
  const random = seeded(28);
  const secrets = [randomSecret(random), randomSecret(random), randomSecret(random)];
  const r = new Redactor(secrets);
  // The cases this test's own decoders read back (a few encodings of the words around are not), secret included.
  const cases = Array.from({ length: 320 }, (_, i) => {
    const secret = pick(random, secrets);
    return { i, secret, ...spell(random, secret) };
  }).filter(({ secret, layers, text }) => decodeAll(text, layers).toLowerCase().includes(secret.toLowerCase()));

  it('draws enough cases', () => expect(cases.length).toBeGreaterThan(280));

  it.each(cases)('case $i: no secret is left in what decodes back', ({ secret, layers, text }) => {
    const out = r.redact(text);
    const decoded = decodeAll(out, layers).toLowerCase();
    const names = layers.map((l) => l.name).join(' of ');
    expect(decoded, `${names}: ${JSON.stringify(out)}`).not.toContain(secret.toLowerCase());
    for (const piece of [secret.slice(0, MIN_PART), secret.slice(-MIN_PART)]) {
      expect(decoded, `${names}: ${piece}`).not.toContain(piece.toLowerCase());
    }
  });

  it('leaves text with no secret in it exactly as it was, whatever its encodings', () => {
    const plain = seeded(7);
    for (let i = 0; i < 300; i += 1) {
      const { text } = spell(plain, randomSecret(plain)); // a string of the same kind that is no secret
      expect(r.redact(text), text).toBe(text);
    }
  });
});

describe('Redactor, cost linear in the text whatever it holds', () => {
  const MIB = 1024 * 1024;
  const r = new Redactor([SECRET, 'studio-api-key-Nf4Gh7Tr2Bc9', 'x'.repeat(40)]);
  // Worst cases for the views: text every decoder reads (base64 of base64, hex, escapes of every kind, NULs).
  const units = [
    'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=',
    '41:42:43:44:45:46 ',
    '%2541\\u0041&#65;&plus;=41\\x41\\101',
    'a\u0000b\u0000',
    Buffer.from('%41'.repeat(40)).toString('base64'),
  ];
  it.each(units)('redacts text made of %j in time linear in its size', async (unit) => {
    const filled = (size: number) => unit.repeat(Math.ceil(size / unit.length));
    expect(await growthFactor(filled, (text: string) => r.redact(text), MIB / 2, 3)).toBeLessThan(LINEAR);
  });
});
