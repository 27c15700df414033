/**
 * Issue 28, point 4: another client is served while a large answer is read, and values of another type than the
 * spec's stay in their list. How long that client waits behind the answer is a matter of speed, measured by
 * `npm run bench` (bench/answers.mjs), not asserted here: on a busy machine any order may come out. Against the built
 * server over HTTP, in both protocol eras, with the SDK's own clients (which check structured content against the
 * tool's published output schema), and a recording upstream on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordingServer, type RecordedRequest, type RecordingServer } from '../../helpers/recording-server.js';
import { connectEraClient, spawnHttpServer, waitFor, type HttpServerProcess } from '../../helpers/spawn-http.js';
import { fullEnv } from '../../helpers/upstream.js';

const MiB = 1024 * 1024;
const LIST = 'apigateway_list_products';

/** An E7 answer of `count` products made by `product`, or of tiny products up to about `bytes`. */
function page(products: unknown[]): string {
  return JSON.stringify({ initialCount: products.length, productPage: { total: products.length, content: products } });
}
function tinyProducts(bytes: number): unknown[] {
  const products = [];
  for (let i = 0, size = 0; size < bytes; i += 1) {
    const product = { productId: `p-${i}`, isPublished: i % 2 === 0 };
    products.push(product);
    size += JSON.stringify(product).length + 1;
  }
  return products;
}
const numericIds = (count: number) => Array.from({ length: count }, (_, i) => ({ productId: i, productName: `n${i}` }));

/** The upstream's E7 answer, by the productName the call asked for. */
const ANSWERS: Record<string, () => string> = {
  tiny: () => page(tinyProducts(4 * MiB - 4096)), // within SVC_MAX_RESPONSE_BYTES (4 MiB)
  numeric1000: () => page(numericIds(1000)),
  numeric3000: () => page(numericIds(3000)),
  nullItem: () => page([{ productId: 'a' }, null, { productId: 'b' }]),
};
/** Made before the tests: making 4 MiB of JSON holds up this process too. */
const BODIES = new Map(Object.entries(ANSWERS).map(([name, make]) => [name, make()]));
/** How many answers the upstream has handed to its socket in full. */
let sent = 0;
function answer(req: RecordedRequest) {
  const name = new URL(req.url, 'http://x').searchParams.get('productName') ?? '';
  const onSent = () => (sent += 1);
  return { status: 200, body: BODIES.get(name), headers: { 'content-type': 'application/json' }, onSent };
}

interface Result {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: { productPage: { content: unknown[] } };
}

let upstream: RecordingServer;
let server: HttpServerProcess;
beforeAll(async () => {
  upstream = await startRecordingServer();
  upstream.setFallback(answer);
  server = await spawnHttpServer([], fullEnv(upstream.url));
});
afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  await upstream?.close();
});

describe.each(['2025', '2026'] as const)('era %s', (era) => {
  it("answers another client's tools/list while a 4 MiB answer of tiny items is read", async () => {
    const reader = await connectEraClient(era, server.url);
    const other = await connectEraClient(era, server.url);
    await reader.listTools();
    const tools = (await other.listTools()).tools.map((t) => t.name);
    const before = sent;
    const large = reader.callTool({ name: LIST, arguments: { productName: 'tiny' } }) as Promise<Result>;
    // The upstream has sent the whole answer: the server is reading it, and the other client asks meanwhile.
    await waitFor(() => sent > before, 600_000, 'the upstream to answer');
    const lists = await Promise.all([other.listTools(), other.listTools(), other.listTools()]);
    for (const list of lists) expect(list.tools.map((t) => t.name)).toEqual(tools);
    const result = await large;
    expect(result.isError, result.content[0]?.text.slice(0, 500)).toBeFalsy();
    expect(result.content[1]!.text).toMatch(/^Shortened to fit .*: productPage\.content shows \d+ of \d{5,} items\./);
    await reader.close();
    await other.close();
  }, 600_000);

  // Before, their values went to the answer's offSpec, which no shortening could cut: 1,000 showed 44 items, and
  // 3,000 failed [result_too_large].
  it.each([1000, 3000])(
    '%i products with a numeric productId: a list, each in its place, shortened by the note',
    async (total) => {
      const client = await connectEraClient(era, server.url);
      await client.listTools(); // the client checks each result against the tool's output schema from here on
      const result = (await client.callTool({ name: LIST, arguments: { productName: `numeric${total}` } })) as Result;
      expect(result.isError, result.content[0]?.text).toBeFalsy();
      const content = result.structuredContent!.productPage.content;
      expect(content[0]).toEqual({ productName: 'n0', offSpec: { productId: 0 } });
      expect(content[1]).toEqual({ productName: 'n1', offSpec: { productId: 1 } });
      expect(content.length).toBeGreaterThan(500);
      expect(result.content[1]!.text).toMatch(
        new RegExp(`productPage\\.content shows ${content.length} of ${total} items`),
      );
      expect(Object.keys(result.structuredContent!)).not.toContain('offSpec');
      await client.close();
    },
  );

  it('keeps a null item in its place as {"offSpec": {"": null}}', async () => {
    const client = await connectEraClient(era, server.url);
    await client.listTools();
    const result = (await client.callTool({ name: LIST, arguments: { productName: 'nullItem' } })) as Result;
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    expect(result.structuredContent!.productPage.content).toEqual([
      { productId: 'a' },
      { offSpec: { '': null } },
      { productId: 'b' },
    ]);
    await client.close();
  });
});
