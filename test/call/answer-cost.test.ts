/**
 * Issue 28, point 4: redacting, interpreting (parse, check against the output schema, off-spec values set aside) and
 * rendering (measure, shorten) an answer of N bytes costs time linear in N. A ratio against eight runs on an eighth of
 * the answer (test/helpers/cost.ts); absolute figures are in `npm run bench` (bench/answers.mjs).
 */
import { describe, expect, it } from 'vitest';
import { render } from '../../src/call/render.js';
import { listProducts } from '../../src/catalogue/apigateway.js';
import { interpretResponse } from '../../src/upstream/response.js';
import { Redactor } from '../../src/util/redact.js';
import { compiled } from '../helpers/attempts.js';
import { growthFactor, LINEAR } from '../helpers/cost.js';
import { SECRETS } from '../helpers/upstream.js';

const MiB = 1024 * 1024;
const operation = compiled(listProducts);
const redactor = new Redactor(SECRETS);
const pause = () => Promise.resolve();

/** An E7 answer of tiny products, about `bytes` long; every 50th with a numeric productId (off the spec). */
function answer(bytes: number): string {
  const items: string[] = [];
  for (let i = 0, size = 0; size < bytes; i += 1) {
    const item = i % 50 === 7 ? `{"productId":${i},"isPublished":true}` : `{"productId":"p-${i}","isPublished":true}`;
    items.push(item);
    size += item.length + 1;
  }
  return `{"initialCount":${items.length},"productPage":{"total":${items.length},"content":[${items.join(',')}]}}`;
}

/** What a call does with an answer once it has arrived, up to its result. */
async function arrive(text: string) {
  const clean = await redactor.redactInWindows(text, pause);
  const read = await interpretResponse(
    operation,
    { status: 200, contentType: 'application/json', text: clean },
    'json',
    pause,
  );
  if (read.kind !== 'json') throw new Error('expected JSON');
  return render({ json: read.value, paging: operation.paging }, 100_000, pause);
}

describe('an answer of tiny items, from arrival to result', () => {
  it('is a shortened list with its off-spec items in place', async () => {
    const result = await arrive(answer(MiB));
    expect(result.content[1]!.text).toMatch(/productPage\.content shows \d+ of \d+ items/);
    const content = (result.structuredContent as { productPage: { content: unknown[] } }).productPage.content;
    expect(content[7]).toEqual({ isPublished: true, offSpec: { productId: 7 } });
  });

  it('costs time linear in its size', async () => {
    expect(await growthFactor(answer, arrive, 2 * MiB, 3)).toBeLessThan(LINEAR);
  }, 120_000);
});
