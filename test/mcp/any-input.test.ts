/**
 * No input to any tool ever produces an internal error (issue 11, item 1): generated wrong values of every JSON type
 * are thrown at every argument of every tool (nested ones too), in process against the sandbox. Each call must end
 * as a tool error naming a known cause (invalid_input above all) or as a valid call; never "internal error", never a
 * protocol error. The generator is seeded, so a failure names the seed and value to replay.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VALID } from '../helpers/valid-args.js';
import { connect, type Harness } from './harness.js';
import { mulberry32 } from '../../src/sandbox/textgen/random.js';

const TOOLS = { ...VALID, translate_and_summarize: { text: 'Hello.', target: 'ko' } };
const SEED = Number(process.env.ANY_INPUT_SEED ?? 20261123);
const VALUES_PER_ARGUMENT = 12;
/** What a call may end with: a refusal of the input, or what the sandbox answers to a call that was valid. */
const KNOWN = /\[(invalid_input|not_confirmed|upstream_error|http_error|result_too_large)\]/;

/** mulberry32 (the sandbox's): small, seeded, good enough to spread values. */
const random = mulberry32;

const STRINGS = [
  '',
  ' ',
  '.',
  '..',
  'NaN',
  'abc',
  '12a',
  '1.5',
  '-1',
  '9'.repeat(30),
  '\uD800',
  'a\uDC00',
  '%00',
  '../x',
  '<span translate="no">',
  '한글',
  '😀',
  'x'.repeat(6000),
  '{"a":1}',
  'null',
  'true',
];
const NUMBERS = [0, -0, -1, 1.5, 2 ** 53, 2 ** 63, -(2 ** 31), 1e308, Number.MIN_VALUE, 129, 2049, 1441];

function value(next: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  switch (Math.floor(next() * (depth > 3 ? 5 : 8))) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return pick(NUMBERS);
    case 3:
    case 4:
      return pick(STRINGS);
    case 5:
      return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
    case 6: {
      const object: Record<string, unknown> = {};
      for (const key of ['a', 'name', '__proto__', 'constructor', 'type'].filter(() => next() < 0.5))
        object[key] = value(next, depth + 1);
      return object;
    }
    default: {
      let deep: unknown = pick(STRINGS);
      for (let i = 0; i < 40; i++) deep = [deep];
      return deep;
    }
  }
}

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
}

/** Every argument path a tool lists: its arguments and the members of its object arguments. */
function paths(schema: SchemaNode): string[][] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, child]) => [
    [name],
    ...Object.keys(child.properties ?? {}).map((inner) => [name, inner]),
  ]);
}

function withValue(args: Record<string, unknown>, path: string[], v: unknown): Record<string, unknown> {
  const copy = structuredClone(args);
  let node = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = v;
  return copy;
}

let h: Harness;
beforeAll(async () => {
  h = await connect();
});
afterAll(async () => {
  await h?.close();
});

it(`answers every generated input with a known outcome (seed ${SEED})`, { timeout: 120_000 }, async () => {
  const next = random(SEED);
  const unknown: string[] = [];
  let calls = 0;
  const { tools } = await h.client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(TOOLS).sort());
  for (const [tool, valid] of Object.entries(TOOLS)) {
    const schema = tools.find((t) => t.name === tool)!.inputSchema as SchemaNode;
    // Every listed argument (dryRun and confirm included), and one the tool does not take.
    const targets = [...paths(schema), ['extra']];
    for (const path of targets) {
      for (let i = 0; i < VALUES_PER_ARGUMENT; i++) {
        const v = value(next);
        const args = withValue(valid, path, v);
        calls += 1;
        let text: string;
        try {
          const result = (await h.client.callTool({ name: tool, arguments: args })) as CallToolResult;
          text = result.isError ? (result.content[0] as { text: string }).text : '[ok]';
        } catch (error) {
          text = `protocol error: ${(error as Error).message}`;
        }
        if (text !== '[ok]' && (!KNOWN.test(text) || /internal error/.test(text))) {
          unknown.push(`${tool} ${path.join('.')}=${JSON.stringify(v)?.slice(0, 80)} -> ${text.slice(0, 200)}`);
        }
      }
    }
  }
  expect(calls).toBeGreaterThan(800);
  expect(unknown, unknown.join('\n')).toEqual([]);
});
