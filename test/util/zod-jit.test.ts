import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import '../../src/util/zod-jit.js';
import { withJit } from '../../src/util/zod-jit.js';
import { migrateKey } from '../../src/catalogue/kms.js';

/** Whether parsing `value` with `schema` compiled a parser: zod makes one with the Function constructor. */
function compilesOnParse(schema: z.ZodType, value: unknown): boolean {
  const real = globalThis.Function;
  let made = 0;
  globalThis.Function = new Proxy(real, {
    construct(target, args: string[]) {
      made++;
      return Reflect.construct(target, args) as object;
    },
  });
  try {
    schema.parse(value);
  } finally {
    globalThis.Function = real;
  }
  return made > 0;
}

describe("zod's compiled parsers: off for what the start builds, on for the catalogue", () => {
  it('a schema made once the module is loaded parses without compiling', () => {
    expect(compilesOnParse(z.object({ a: z.string() }), { a: 'x' })).toBe(false);
  });

  it('a schema made by withJit compiles its parser, and the setting is back after', () => {
    expect(
      compilesOnParse(
        withJit(() => z.object({ b: z.string() })),
        { b: 'x' },
      ),
    ).toBe(true);
    expect(compilesOnParse(z.object({ c: z.string() }), { c: 'x' })).toBe(false);
    expect(() =>
      withJit(() => {
        throw new Error('made nothing');
      }),
    ).toThrow('made nothing');
    expect(compilesOnParse(z.object({ d: z.string() }), { d: 'x' })).toBe(false);
  });

  it("an operation's input and output schemas, built on first use, compile their parsers", () => {
    expect(compilesOnParse(migrateKey.input, { keyTag: 'k1', targetRegion: 'KR' })).toBe(true);
    expect(compilesOnParse(migrateKey.output, { code: 'SUCCESS', data: {} })).toBe(true);
  });
});
