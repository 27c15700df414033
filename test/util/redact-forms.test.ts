/**
 * Issue 32 (H1, L1): a secret as a list of its byte values and in the spellings no decoder read before (base32,
 * ASCII85, Z85, reversed, ROT13, spaced out, with invisible characters between, fullwidth, wrapped), as it is and
 * inside a JSON string; with no budget an answer can use up. Issue 33, item 1: only secrets are replaced, never what
 * surrounds a header name, and an answer without a secret comes back exactly as it went in.
 */
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/util/redact.js';
import { FORMS, pick, seeded, type Random } from '../helpers/spellings.js';

const KEY = 'gw-secret-7Hq2LmX9vB4nR8tK';
const SIGNATURE = 'W2VjaG9lZF0gc2lnbmF0dXJlIG9mIG9uZSBjYWxsIQ==';
const NON_ASCII = 'clé-secrète-Ωmega-2026';
const base = new Redactor([KEY, NON_ASCII]);
const call = base.with([SIGNATURE]);

/** The longest stretch of `spelled` still in `out`: what is left of the spelling after redaction. */
function longestLeft(out: string, spelled: string): number {
  let longest = 0;
  for (let i = 0; i < spelled.length; i += 1) {
    for (let k = longest + 1; i + k <= spelled.length && out.includes(spelled.slice(i, i + k)); k += 1) longest = k;
  }
  return longest;
}

/**
 * The part of a spelling that is the secret's: what differs from the same spelling of another secret of the same
 * length (a wrapper such as `{"type":"Buffer","data":[`, the bytes of a blob around the secret, its padding, aside).
 */
function core(spell: (secret: string) => string, secret: string): string {
  const spelled = spell(secret);
  const other = spell(
    [...secret]
      .map((c) => (c === 'q' ? 'z' : c === 'z' ? 'q' : c))
      .reverse()
      .join(''),
  );
  let start = 0;
  while (start < spelled.length && spelled[start] === other[start]) start += 1;
  let end = 0;
  while (end < spelled.length - start && spelled[spelled.length - 1 - end] === other[other.length - 1 - end]) end += 1;
  return spelled.slice(start, spelled.length - end);
}
/** The most of a spelling's own part that may stay: a character or two on each side shares bits with its neighbours. */
const LEFT = 8;

describe('Redactor, the forms of issue 32', () => {
  for (const form of FORMS) {
    for (const [name, secret] of [
      ['a configured key', KEY],
      ["the call's signature", SIGNATURE],
      ['a key beyond ASCII', NON_ASCII],
    ] as const) {
      for (const pad of [0, 1, 2, 3, 4]) {
        const spelled = form.spell(secret, pad);
        if (pad > 0 && spelled === form.spell(secret, 0)) continue; // the form has no bytes around
        it(`finds ${name} as ${form.name}${pad ? `, ${pad} bytes into its blob` : ''}`, () => {
          const out = call.redact(`echo: ${spelled} end`);
          expect(out).toContain('[redacted]');
          expect(out.startsWith('echo: ')).toBe(true);
          expect(out.endsWith(' end')).toBe(true);
          expect(
            longestLeft(
              out,
              core((s) => form.spell(s, pad), secret),
            ),
            out,
          ).toBeLessThan(LEFT);
        });
        it(`finds ${name} as ${form.name}${pad ? ` (${pad})` : ''} inside a JSON string, which stays valid`, () => {
          const out = call.redact(JSON.stringify({ echo: `echo: ${spelled} end`, n: 1 }));
          const parsed = JSON.parse(out) as { echo: string; n: number };
          expect(parsed.n).toBe(1);
          expect(
            longestLeft(
              parsed.echo,
              core((s) => form.spell(s, pad), secret),
            ),
            parsed.echo,
          ).toBeLessThan(LEFT);
        });
      }
    }
  }

  it("knows the call's signature only in the call's redactor", () => {
    const spelled = FORMS[0]!.spell(SIGNATURE);
    expect(base.redact(spelled)).toBe(spelled);
    expect(call.redact(spelled)).not.toBe(spelled);
  });

  // Before: the views of all layers together had a budget of 12 units per unit, used up by ordinary items.
  it.each([200, 5_000])('finds a three-layer spelling after %i ordinary items', (count) => {
    // Items with escapes of several kinds: each kind decoded is a view about as long as the text.
    const items = Array.from({ length: count }, (_, i) => ({
      productId: `p-${i}`,
      name: 'Café %252541 &amp;amp;#65; =3D=41 \\u0041 co',
      url: `https://example.com/a?b=${i}&amp;c=%2F\\u00e9`,
    }));
    const hex = Buffer.from(KEY).toString('hex');
    const layered = encodeURIComponent(encodeURIComponent(Buffer.from(hex).toString('base64')));
    const text = JSON.stringify({ content: items, echo: layered });
    const out = call.redact(text);
    expect(out).not.toContain(layered.slice(0, 20));
    const { content, echo } = JSON.parse(out) as { content: unknown; echo: string };
    expect(content).toEqual(items);
    expect(echo).toMatch(/^\[redacted\](%253D)*$/); // base64's padding may stay: it holds none of the secret
  });
});

describe('Redactor, an answer without a secret is left as it is (issue 33, item 1)', () => {
  it.each([
    '{"message":{"result":{"translatedText":"curl -H \\"X-SVC-APIGW-API-KEY: $API_KEY\\" https://example.com/v1"}}}',
    '{"text":"(X-SVC-APIGW-API-KEY: <your key>)"}',
    "{'x-svc-apigw-signature-v2': signature}",
    'x-svc-apigw-signature-v2=abc; X-SVC-STUDIO-API-KEY: "studio key" x-svc-iam-access-key:AKIA',
  ])('%s', (text) => {
    expect(call.redact(text)).toBe(text);
  });

  const WORDS = [
    'the',
    'X-SVC-APIGW-API-KEY:',
    'x-svc-apigw-signature-v2',
    'signature',
    '$API_KEY',
    '<your key>',
    '\\"',
    'é',
    '한국어',
    '１２３',
    'ＡＢＣ',
    '\u200b',
    '\u00ad',
    '\n',
    '\r\n  ',
    'key=AB',
    'pageSize=20',
    '%41',
    '&amp;',
    '\\u0041',
    '[99, 115, 101]',
    '[1 2 3 4 5 6 7 8 9 10 11 12]',
    'a b c d e f g h i j k l',
    'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=',
    'MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43UOV3HO6DZPI======',
    '<~87cURD]i,"Ebo80~>',
    'deadbeefcafebabe0011223344556677',
  ];
  const texts = (random: Random, count: number) =>
    Array.from({ length: count }, () =>
      Array.from({ length: 3 + Math.floor(random() * 12) }, () => pick(random, WORDS)).join(
        pick(random, [' ', '', ', ']),
      ),
    );

  it('leaves 500 random texts of the words an answer holds as they were, and as JSON', () => {
    const random = seeded(33);
    for (const text of texts(random, 500)) {
      expect(call.redact(text), text).toBe(text);
      const json = JSON.stringify({ text, n: [1, 2, 3] });
      expect(call.redact(json), json).toBe(json);
    }
  });

  it('leaves a large answer of them as it was, in windows', async () => {
    const random = seeded(34);
    const json = JSON.stringify({ items: texts(random, 20_000) });
    expect(await call.redactInWindows(json)).toBe(json);
  });
});

describe('Redactor, a byte list of millions of numbers', () => {
  it('reads it number by number, without running out of stack, and finds a key inside it', async () => {
    const numbers = '7,'.repeat(2_000_000);
    const bytes = [...Buffer.from(KEY)].join(',');
    const text = `[${numbers}${bytes},${numbers}7]`;
    const clean = await base.redactInWindows(text);
    expect(clean).not.toContain(bytes);
    expect(base.redact(`[${numbers}7]`)).toBe(`[${numbers}7]`);
  });
});
