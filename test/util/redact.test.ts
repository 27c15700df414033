/**
 * Secrets however an upstream echoes them (issue 13, item 3): plain, in any case, JSON-escaped, \u-escaped,
 * URL-encoded, base64, of any length; and the value after a credential header's name, whatever it is.
 */
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/util/redact.js';
import { costRatio, growthFactor, LINEAR } from '../helpers/cost.js';

const SECRET = 'gw-secret/7Hq+2"x';
const r = new Redactor([SECRET]);
const unicodeEscaped = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('Redactor', () => {
  it.each([
    ['as is', SECRET],
    ['JSON-escaped', JSON.stringify(SECRET).slice(1, -1)],
    ['\\u-escaped', unicodeEscaped(SECRET)],
    ['\\u-escaped in upper-case hex', unicodeEscaped(SECRET).toUpperCase()],
    ['partly \\u-escaped', `gw-secret\\u002f7Hq+2\\"x`],
    ['URL-encoded', encodeURIComponent(SECRET)],
    ['upper-cased', SECRET.toUpperCase()],
    ['base64', Buffer.from(SECRET).toString('base64').replace(/=+$/, '')],
    ['base64url', Buffer.from(SECRET).toString('base64url')],
  ])('finds it %s', (_, echoed) => {
    const text = `{"details":"echo: ${echoed} end"}`;
    expect(r.redact(text)).toBe('{"details":"echo: [redacted] end"}');
  });

  it('reads plain ASCII text (no escape in it) the same way: any case, a space as +', () => {
    const spaced = new Redactor(['Open Sesame 42']);
    expect(spaced.redact('q=OPEN+SESAME+42 and open sesame 42, Open+Sesame+420')).toBe(
      'q=[redacted] and [redacted], [redacted]0',
    );
  });

  it('redacts secrets of any length', () => {
    expect(new Redactor(['k9']).redact('key k9 and K9')).toBe('key [redacted] and [redacted]');
  });

  // Issue 33: documentation of the platform names its headers; only secrets are replaced, never what follows a name.
  it.each([
    '{"translatedText":"curl -H \\"X-SVC-APIGW-API-KEY: $API_KEY\\" https://example.com"}',
    '(X-SVC-APIGW-API-KEY: <your key>)',
    "{'x-svc-apigw-signature-v2': signature}",
    '{"x-svc-apigw-signature-v2": "c2lnbmF0dXJl+/=", X-SVC-APIGW-API-KEY=abc;}',
  ])('leaves a credential header and a value that is no secret as they are: %s', (text) => {
    expect(r.redact(text)).toBe(text);
  });

  it('replaces a secret after a credential header name, and only the secret', () => {
    const text = `50%25 caf\\u00e9 X-SVC-APIGW-SIGNATURE-V2: ${SECRET} ok`;
    expect(r.redact(text)).toBe('50%25 caf\\u00e9 X-SVC-APIGW-SIGNATURE-V2: [redacted] ok');
  });

  it('knows more secrets when asked, without losing its own', () => {
    const wider = r.with(['per-call-signature']);
    expect(wider.redact(`${SECRET} per-call-signature`)).toBe('[redacted] [redacted]');
    expect(r.redact('per-call-signature')).toBe('per-call-signature');
  });
});

it('leaves a value it already redacted as it is (redacting twice changes nothing)', () => {
  const once = r.redact(`{"x-svc-apigw-signature-v2":"abc","echo":"${JSON.stringify(SECRET).slice(1, -1)}"}`);
  expect(r.redact(once)).toBe(once);
  expect(once).toBe('{"x-svc-apigw-signature-v2":"abc","echo":"[redacted]"}');
});

describe('Redactor, spellings mixed within one echo and around other text', () => {
  const secret = 'Ünïcode Kéy/🔑+비밀';
  const redactor = new Redactor([secret]);
  const percent = (s: string) =>
    [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  const jsonUnicode = (s: string) =>
    Array.from({ length: s.length }, (_, i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

  it.each([
    ['as is', secret],
    ['upper-cased', secret.toUpperCase()],
    ['every character percent-encoded (UTF-8)', percent(secret)],
    ['URL form encoding (a space as +)', encodeURIComponent(secret).replaceAll('%20', '+')],
    ['\\u-escaped, the emoji as a surrogate pair', jsonUnicode(secret)],
    [
      'each character spelled another way',
      `${percent('Ü')}N${jsonUnicode('ï')}code+K\\u00e9Y\\/${jsonUnicode('🔑')}%2B${percent('비')}밀`,
    ],
  ])('finds a non-ASCII secret %s, keeping the text around it exactly', (_, echoed) => {
    const before = 'İstanbul %zz 50% \\n "quoted" ';
    expect(redactor.redact(`${before}${echoed} after`)).toBe(`${before}[redacted] after`);
  });

  it('replaces a secret that contains another whole, and secrets side by side each', () => {
    const nested = new Redactor(['abc', 'xxabcxx']);
    expect(nested.redact('1 xxabcxx 2 abc 3')).toBe('1 [redacted] 2 [redacted] 3');
    expect(nested.redact('abcabc')).toBe('[redacted][redacted]');
    expect(new Redactor(['aa']).redact('aaa')).toBe('[redacted]');
  });

  it('leaves text without a secret exactly as it was, escapes included', () => {
    const text = 'Caf\\u00e9 %E2%82%AC %zz %C3 İİ \\"x\\" + end';
    expect(redactor.redact(text)).toBe(text);
  });

  it('costs little per call: a redactor with a new secret (a signature) costs about what redacting 1 KB costs', async () => {
    const base = new Redactor([
      'gw-secret-7Hq2LmX9vB4nR8tK',
      'generic-client-secret-Pz6Wq3Ys',
      'studio-api-key-Nf4Gh7Tr2Bc9',
    ]);
    const text = JSON.stringify({
      items: Array.from({ length: 20 }, (_, i) => ({ name: `item ${i}`, url: `https:\\/\\/example.com\\/${i}` })),
    });
    let call = 0;
    const withNewSecret = () => {
      for (let i = 0; i < 200; i++) base.with([Buffer.from(`signature-${call++}`).toString('base64')]).redact(text);
    };
    const knownSecrets = () => {
      for (let i = 0; i < 200; i++) base.redact(text);
    };
    // Building a regular expression of every spelling took some 5 ms per secret, hundreds of times the redaction.
    expect(await costRatio(withNewSecret, knownSecrets)).toBeLessThan(30);
  });
});

describe('Redactor, encoded spellings (issue 19)', () => {
  const redactor = new Redactor([SECRET]);
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

  it('finds a secret in a Basic credential (at byte 2 of its group) and in base64 JSON (at byte 8)', () => {
    // 'a:' is 16 bits: the first two characters (12 bits) hold only 'a:', the third holds 4 bits of ':' and 2 of
    // the secret's first byte; the secret (17 bytes) ends at bit 152, inside the 26th and last character, then '=='.
    const basic = b64(`a:${SECRET}`);
    expect(basic).toHaveLength(28);
    expect(redactor.redact(`Authorization: Basic ${basic}`)).toBe(
      `Authorization: Basic ${basic.slice(0, 2)}[redacted]==`,
    );
    // '{"key":"' is 64 bits: ten characters hold only it (60 bits); the secret ends at bit 200, inside the 34th
    // character; '"}' fills the rest of it and two more characters.
    const json = b64(`{"key":"${SECRET}"}`);
    expect(json).toHaveLength(36);
    expect(redactor.redact(`blob=${json};`)).toBe(`blob=${json.slice(0, 10)}[redacted]${json.slice(34)};`);
  });

  // A secret of s bytes after p bytes: the characters before floor(8p / 6) hold only the bytes before it, those from
  // ceil(8(p + s) / 6) on only the bytes after it; every other character holds bits of the secret.
  const prefixes = ['', 'a', 'ab', 'abc', 'abcd', 'abcde'];
  const suffixes = ['', 'x', 'xy', 'xyz'];
  it.each(prefixes.flatMap((before) => suffixes.map((after) => [before.length, after.length, before, after] as const)))(
    'finds a secret inside base64 and base64url after %i bytes and before %i bytes, leaving none of its bits',
    (_p, _s, before, after) => {
      const bits = (bytes: string) => 8 * Buffer.byteLength(bytes);
      for (const [encode, pad] of [
        [b64, true],
        [b64url, false],
      ] as const) {
        const blob = encode(`${before}${SECRET}${after}`);
        const end = pad ? blob.replace(/=+$/, '').length : blob.length;
        const first = Math.floor(bits(before) / 6);
        const last = Math.ceil(bits(before + SECRET) / 6);
        const expected = `${blob.slice(0, first)}[redacted]${blob.slice(Math.min(last, end))}`;
        expect(redactor.redact(`<${blob}>`)).toBe(`<${expected}>`);
      }
    },
  );

  it.each([
    ['lower-case hex of its UTF-8 bytes', Buffer.from(SECRET).toString('hex')],
    ['upper-case hex', Buffer.from(SECRET).toString('hex').toUpperCase()],
    ['HTML decimal references', [...SECRET].map((c) => `&#${c.codePointAt(0)};`).join('')],
    ['HTML hex references', [...SECRET].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('')],
    [
      'HTML hex references in upper case, leading zeros',
      [...SECRET].map((c) => `&#X${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')};`).join(''),
    ],
    ['references mixed with literal characters', `gw-&#115;ecret&#x2F;7H&#113;+2&quot;x`],
    ['references without their semicolons (as HTML allows)', `gw-secret&#47&#x37Hq+2"x`],
    ['XML, as E5 may echo it', `gw-secret/7Hq+2&quot;x`],
  ])('finds it as %s', (_, echoed) => {
    expect(redactor.redact(`<echo>${echoed}</echo>`)).toBe('<echo>[redacted]</echo>');
  });

  it('finds a non-ASCII secret as hex and as HTML references to characters beyond U+FFFF', () => {
    const secret = 'Kéy/🔑+비밀';
    const r = new Redactor([secret]);
    expect(r.redact(`x ${Buffer.from(secret).toString('hex').toUpperCase()} y`)).toBe('x [redacted] y');
    expect(r.redact(`x ${[...secret].map((c) => `&#${c.codePointAt(0)};`).join('')} y`)).toBe('x [redacted] y');
  });

  it('leaves references, hex and base64 that spell no secret as they were', () => {
    const text = `&#107;&#x6B; &amp; &#; &#x; &#99999999; &bogus; ${Buffer.from('not a secret').toString('hex')} ${b64('not a secret either')}`;
    expect(redactor.redact(text)).toBe(text);
  });
});

describe('Redactor, time linear in the text', () => {
  const MIB = 1024 * 1024;
  const filled = (unit: string, size: number) => unit.repeat(Math.floor(size / unit.length));
  const redactor = new Redactor(['gw-secret-7Hq2LmX9vB4nR8tK', 'studio-api-key-Nf4Gh7Tr2Bc9']).with([
    Buffer.from('signature-of-one-call').toString('base64'),
  ]);

  // Escapes of each kind, back to back; a character whose lower case is two units; spaces (each a '+' in the view).
  // Before the view, 4 MiB of them took 4.6 s and 600 MiB (an object per escape or character).
  it.each(['\\u00e9', '%C3%A9', '\\"', '%zz%41', '&#233;', 'İ', ' '])(
    'redacts 4 MiB made of %j, finding the secret at its end, in time linear in its size',
    async (unit) => {
      const text = filled(unit, 4 * MIB);
      expect(redactor.redact(`${text}gw-secret-7Hq2LmX9vB4nR8tK`)).toBe(`${text}[redacted]`);
      const redact = (input: string) => redactor.redact(input);
      expect(await growthFactor((size) => filled(unit, size), redact, MIB / 2, 3)).toBeLessThan(LINEAR);
    },
  );

  // Issue 24: a fast path for ASCII replaced each space with replaceAll, 15 times slower than letters.
  it('redacts 4 MiB of spaces no slower than twice 4 MiB of letters', async () => {
    const spaces = filled(' ', 4 * MIB);
    const letters = filled('abcdefghij', 4 * MIB);
    expect(
      await costRatio(
        () => redactor.redact(spaces),
        () => redactor.redact(letters),
      ),
    ).toBeLessThan(2);
  });
});

describe('Redactor, a large text in windows (issue 28: the event loop stays free)', () => {
  const SECRETS = ['gw-secret-7Hq2LmX9vB4nR8tK', 'generic-client-secret-Pz6Wq3Ys', 'studio-api-key-Nf4Gh7Tr2Bc9'];
  const redactor = new Redactor(SECRETS);
  /** One spelling of a secret an upstream might echo, by number. */
  const spelled = (secret: string, kind: number): string => {
    const bytes = Buffer.from(secret);
    return [
      secret,
      encodeURIComponent(encodeURIComponent(secret)),
      bytes.toString('base64'),
      unicodeEscaped(secret),
      bytes.toString('hex'),
      Buffer.from(bytes.toString('hex')).toString('base64'),
      [...secret].map((c) => `&#${c.charCodeAt(0)};`).join(''),
      secret.toUpperCase(),
    ][kind % 8]!;
  };
  /** A JSON list of about `bytes` bytes whose items hold secrets in every spelling, here and there (seeded). */
  const answer = (bytes: number, seed: number) => {
    let state = seed;
    const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const items: string[] = [];
    for (let i = 0, size = 0; size < bytes; i += 1) {
      const value = random() < 0.003 ? spelled(SECRETS[i % 3]!, Math.floor(random() * 8)) : `p-${i}`;
      const item = `{"productId":"${value}","isPublished":true}`;
      items.push(item);
      size += item.length + 1;
    }
    return `{"content":[${items.join(',')}],"x-svc-apigw-signature-v2":"abc"}`;
  };

  it.each([1, 2, 3])(
    'finds what one pass over the whole text finds, however the windows fall (seed %i)',
    async (seed) => {
      const text = answer(3 * 1024 * 1024 + seed * 77_777, seed);
      let turns = 0;
      const windowed = await redactor.redactInWindows(text, () => ((turns += 1), Promise.resolve()));
      expect(windowed).toBe(redactor.redact(text));
      expect(turns).toBeGreaterThanOrEqual(2);
      expect(windowed.match(/\[redacted\]/g)!.length).toBeGreaterThan(5);
      for (const secret of SECRETS) expect(windowed.toLowerCase()).not.toContain(secret.toLowerCase());
    },
  );

  it('cuts no window inside a secret: one made of the characters windows are cut between is found whole', async () => {
    const odd = new Redactor(['"{secret}"{"}', 'x'.repeat(8)]);
    const text = `${'{"a":"b"},'.repeat(60_000)}"{secret}"{"}${'{"a":"b"},'.repeat(60_000)}`;
    expect(await odd.redactInWindows(text)).toBe(odd.redact(text));
    expect(await odd.redactInWindows(text)).toContain('[redacted]');
  });
});
