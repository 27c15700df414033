import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVERSE_GEOCODE_VIEW } from '../../../src/mcp/app-views/app-views.js';
import { SANDBOX_CREDENTIALS } from '../../../src/sandbox/credentials.js';
import { createCrsConverter } from '../../../src/sandbox/maps/crs.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawn-server.js';

// Debian's chromium (`apt-get install chromium`; .ci/run installs it), driven by playwright-core. Without it the
// browser tests are skipped, saying so, so that a fresh clone with nothing installed still passes `npm test`.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(
    `test/e2e/app-view: no chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH): the browser ` +
      'tests of the app view are skipped',
  );
}

const TOOL = 'maps_reverse_geocode';
const ALL = 'legalcode,admcode,addr,roadaddr';
const URI = REVERSE_GEOCODE_VIEW.uri;
/** A PNG of one transparent pixel: what the test's tile server answers. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

type Result = { structuredContent?: Record<string, unknown>; isError?: boolean };
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Serves the host page and its script (the bridge, bundled for the browser) on loopback. */
async function hostServer(): Promise<{ server: Server; origin: string }> {
  const bundle = await rolldown({
    input: fileURLToPath(new URL('../../../scripts/lib/app-view-host.ts', import.meta.url)),
    platform: 'browser',
    logLevel: 'warn',
  });
  const { output } = await bundle.generate({ format: 'iife' });
  await bundle.close();
  const script = output[0].code;
  const page =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test host</title>' +
    '<link rel="icon" href="data:,"></head>' +
    '<body><h1>Test host</h1><script src="/host.js"></script></body></html>';
  const server = createServer((request, response) => {
    if (request.url === '/host.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html' }).end(page);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A tile server on loopback: every path is a one-pixel PNG; the paths asked for are kept. */
async function tileServer(): Promise<{ server: Server; origin: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

interface Host {
  page: Page;
  context: BrowserContext;
  /** Every URL the page and its frames asked for, with whether a view's frame asked. */
  requests: { url: string; fromView: boolean }[];
  errors: string[];
  /** Calls the tool through the test's client, then shows its view; returns the result and the view's frame. */
  show(
    id: string,
    args: Json,
    options?: { withoutPermissions?: boolean },
  ): Promise<{ result: Result; frame: Frame; csp: string }>;
}

async function openHost(browser: Browser, origin: string, mcp: SpawnedServer): Promise<Host> {
  const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
  const page = await context.newPage();
  const requests: Host['requests'] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push({ url: r.url(), fromView: r.frame() !== page.mainFrame() }));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.exposeFunction('mcpCall', (name: string, args: Json) => mcp.call(name, args));
  await page.exposeFunction('mcpRead', (uri: string) => mcp.client.readResource({ uri }));
  await page.goto(`${origin}/`);
  return {
    page,
    context,
    requests,
    errors,
    async show(id, args, options = {}) {
      const result = (await mcp.call(TOOL, args)) as Result;
      const { csp } = await page.evaluate(([i, u, a, r, o]) => window.showView(i, u, a, r, o), [
        id,
        URI,
        args,
        result,
        options,
      ] as const);
      const frame = (await (await page.$(`#${id}`))!.contentFrame())!;
      await frame.waitForSelector('#answer > *');
      return { result, frame, csp };
    },
  };
}

/** The view's definition list: each term with its description's text. */
async function fields(frame: Frame): Promise<Record<string, string>> {
  return frame.$$eval('dl dt', (terms) =>
    Object.fromEntries(terms.map((dt) => [dt.textContent ?? '', (dt.nextElementSibling as HTMLElement).innerText])),
  );
}

const resultsOf = (result: Result) => (result.structuredContent?.results ?? []) as Json[];
const named = (result: Result, name: string) => resultsOf(result).find((r) => r.name === name);
const addition = (land: Json, type: string) =>
  Object.values(land).find((a: Json) => a && typeof a === 'object' && a.type === type)?.value as string | undefined;

// A frame out of the viewport is not painted by chromium (its animation frames stop): waits poll on a timer instead.
describe.skipIf(!haveChromium)('the app view in a real browser (chromium)', { timeout: 60_000 }, () => {
  let browser: Browser;
  let host: { server: Server; origin: string };
  let mcp: SpawnedServer;

  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    // Each launch has a new, empty profile of its own (Playwright's temporary --user-data-dir).
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      chromiumSandbox: false,
      args: [
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    host = await hostServer();
    mcp = await spawnServer({}, ['--sandbox']);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await mcp?.close();
    host?.server.close();
  });

  it('shows what the answer holds for an inland point with four results, equal to the structured result', async () => {
    const h = await openHost(browser, host.origin, mcp);
    const { result, frame, csp } = await h.show('seoul', { coords: '126.97843,37.56668', orders: ALL });
    expect(result.isError).toBeFalsy();
    const legal = named(result, 'legalcode')!;
    const admin = named(result, 'admcode')!;
    const road = named(result, 'roadaddr')!;
    const lot = named(result, 'addr')!;
    const f = await fields(frame);
    expect(f['Statutory dong']).toBe(`${legal.region.area3.name} ${legal.code.id} ${legal.code.type}`);
    expect(f['Administrative dong']).toBe(`${admin.region.area3.name} ${admin.code.id} ${admin.code.type}`);
    const regions = `${road.region.area1.name} ${road.region.area2.name}`;
    expect(f['Road address']).toContain(`${regions} ${road.land.name} ${road.land.number1}`);
    expect(f['Road address']).toContain(`${road.land.number1} Sejong-daero, Jung-gu, Seoul-teukbyeolsi`);
    expect(f['Land-lot address']).toContain(`${regions} ${lot.region.area3.name} ${lot.land.number1}`);
    expect(f['Building']).toBe(addition(road.land, 'building'));
    expect(f['Postal code']).toBe(addition(road.land, 'zipcode'));
    const center = road.land.coords.center;
    expect(f['Address centre']).toBe(`${center.x}, ${center.y} (${center.crs})`);
    expect(f['Point asked']).toBe('126.97843, 37.56668 (EPSG:4326)');
    expect(f['Results']).toBe(
      `${resultsOf(result).length} (legalcode, admcode, addr, roadaddr; coordinates in EPSG:4326)`,
    );
    expect(f['Region']).toBe(
      `${legal.region.area1.name} (${legal.region.area1.alias}) › ${legal.region.area2.name} › ${legal.region.area3.name}`,
    );
    // No credential of the sandbox's anywhere in the frame, markup included (the maps key pair signs this very call).
    const frameHtml = await frame.content();
    for (const secret of Object.values(SANDBOX_CREDENTIALS)) expect(frameHtml).not.toContain(secret);
    // The schematic names the levels for a screen reader.
    const label = await frame.getAttribute('svg[role="img"]', 'aria-label');
    expect(label).toContain(legal.region.area3.name);
    // No domain declared: the host's policy lets the frame load nothing, and it loaded nothing.
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toMatch(/img-src data:;/);
    expect(h.requests.filter((r) => r.fromView)).toEqual([]);
    expect(h.requests.every((r) => new URL(r.url).origin === host.origin)).toBe(true);
    expect(h.errors).toEqual([]);
    if (process.env.APP_VIEW_SCREENSHOTS) {
      await h.page.screenshot({ path: join(process.env.APP_VIEW_SCREENSHOTS, 'seoul.png'), fullPage: true });
    }
    await h.context.close();
  });

  it('says plainly when a point has no address: on the coast (rule 1) and at sea (status 3)', async () => {
    const h = await openHost(browser, host.origin, mcp);
    const coast = await h.show('coast', { coords: '129.1587,35.1586', orders: ALL });
    const legal = named(coast.result, 'legalcode')!;
    expect(named(coast.result, 'roadaddr')).toBeUndefined();
    const f = await fields(coast.frame);
    expect(f['Statutory dong']).toBe(`${legal.region.area3.name} ${legal.code.id} L`);
    expect(f['Road address']).toBe('none at this point');
    expect(f['Land-lot address']).toBe('none at this point');
    expect(await coast.frame.innerText('.notice')).toContain('No road or land-lot address here');

    const sea = await h.show('sea', { coords: '129.4,35.0', orders: ALL });
    expect((await fields(sea.frame))['Point asked']).toBe('129.4, 35.0 (EPSG:4326)');
    expect(resultsOf(sea.result)).toEqual([]);
    const status = sea.result.structuredContent!.status as Json;
    expect(await sea.frame.innerText('.notice')).toBe(
      `No address here: the service found nothing at this point (status ${status.code}, ${status.name}: ` +
        `${status.message}). Points at sea have none.`,
    );
    // The coast asked for addresses only: status 3 too, and the view says the dong may still resolve; one button
    // asks for all four through the host.
    const only = await h.show('only', { coords: '129.1587,35.1586', orders: 'addr,roadaddr' });
    expect(resultsOf(only.result)).toEqual([]);
    expect(await only.frame.innerText('.notice')).toContain(
      'Only addresses were asked for: near coasts the dong may resolve where they do not.',
    );
    await only.frame.getByRole('button', { name: 'Ask for all four: dong codes and addresses' }).click();
    await only.frame.waitForFunction(() => document.querySelector('dl dt')?.textContent === 'Region', undefined, {
      polling: 100,
    });
    expect((await fields(only.frame))['Statutory dong']).toBe(`${legal.region.area3.name} ${legal.code.id} L`);
    if (process.env.APP_VIEW_SCREENSHOTS) {
      await h.page.screenshot({ path: join(process.env.APP_VIEW_SCREENSHOTS, 'coast-sea.png'), fullPage: true });
    }
    expect(h.errors).toEqual([]);
    await h.context.close();
  });

  it("shows a failed call's error, and an answer asked as XML as the text it is", async () => {
    const h = await openHost(browser, host.origin, mcp);
    const failed = await h.show('failed', { coords: 'not a point' });
    const contentText = (r: Result) => ((r as Json).content as { text: string }[])[0]!.text;
    expect(failed.result.isError).toBe(true);
    expect(await failed.frame.innerText('.notice')).toBe('The call failed:');
    expect(await failed.frame.innerText('pre')).toBe(contentText(failed.result));
    const xml = await h.show('xml', { coords: '127.49255,37.49261', output: 'xml' });
    expect(await xml.frame.innerText('pre')).toBe(contentText(xml.result));
    expect(h.errors).toEqual([]);
    await h.context.close();
  });

  it('shows several calls as several views, each with its own answer; a UTM-K point also in WGS 84', async () => {
    const h = await openHost(browser, host.origin, mcp);
    const [x, y] = createCrsConverter().fromWgs84('SVC:2048', [127.10522, 37.35951]);
    const coords = `${x.toFixed(2)},${y.toFixed(2)}`;
    const utmk = await h.show('utmk', { coords, sourcecrs: 'SVC:2048', orders: ALL });
    const inland = await h.show('inland', { coords: '127.49255,37.49261' });
    const a = await fields(utmk.frame);
    const b = await fields(inland.frame);
    expect(a['Building']).toBe(addition(named(utmk.result, 'roadaddr')!.land, 'building'));
    expect(b['Building']).toBeUndefined();
    const [, wgs] = /WGS 84: ([\d.]+), ([\d.]+)$/.exec(a['Point asked']!) ?? [];
    expect(a['Point asked']).toMatch(new RegExp(`^${coords.replace(',', ', ')} \\(SVC:2048\\); WGS 84: `));
    expect(Math.abs(Number(wgs) - 127.10522)).toBeLessThan(1e-6);
    // The inland point with the default orders: a ri of an eup (rule 2: code type L in admcode), no address asked.
    const admin = named(inland.result, 'admcode')!;
    expect(b['Administrative dong']).toBe(
      `${admin.region.area3.name} ${admin.region.area4.name} ${admin.code.id} ${admin.code.type}`,
    );
    expect(await inland.frame.innerText('.notice')).toBe(
      'This call asked only for legalcode and admcode: no address was asked for.',
    );
    expect(await utmk.frame.innerText('main')).not.toContain(admin.region.area4.name);
    expect(h.errors).toEqual([]);
    await h.context.close();
  });

  it('asks again in another CRS through the host, which reaches the server like any call', async () => {
    const h = await openHost(browser, host.origin, mcp);
    const { frame } = await h.show('again', { coords: '129.13599,35.16902', orders: ALL });
    const logged = () => mcp.stderr().match(/"event":"tool_call"/g)?.length ?? 0;
    const before = logged();
    await frame.getByLabel('Coordinates in').selectOption('EPSG:3857');
    await frame.getByRole('button', { name: 'Ask again' }).click();
    await frame.waitForFunction(
      () => document.getElementById('subtitle')?.textContent?.includes('EPSG:3857'),
      undefined,
      {
        polling: 100,
      },
    );
    expect(logged()).toBe(before + 1);
    const direct = (await mcp.call(TOOL, {
      coords: '129.13599,35.16902',
      orders: ALL,
      targetcrs: 'EPSG:3857',
    })) as Result;
    const center = named(direct, 'roadaddr')!.land.coords.center;
    const f = await fields(frame);
    expect(f['Address centre']).toMatch(new RegExp(`^${center.x}, ${center.y} \\(EPSG:3857\\); WGS 84: 129\\.13599`));
    expect(await frame.innerText('#status')).toBe(
      'Answer shown: asked again by the view with coordinates in EPSG:3857.',
    );
    expect(h.requests.filter((r) => r.fromView)).toEqual([]);
    expect(h.errors).toEqual([]);
    await h.context.close();
  });

  it('has labels and a focus order for the keyboard, and copies an address in Korean and romanised', async () => {
    const h = await openHost(browser, host.origin, mcp);
    const { result, frame } = await h.show('keys', { coords: '127.10522,37.35951', orders: ALL });
    expect(await frame.getAttribute('html', 'lang')).toBe('en');
    expect(await frame.getByRole('combobox', { name: 'Coordinates in' }).count()).toBe(1);
    for (const name of [
      'Copy in Korean: the road address',
      'Copy romanised: the road address',
      'Copy in Korean: the land-lot address',
      'Copy romanised: the land-lot address',
      'Ask again',
      'Ask for all four: dong codes and addresses',
    ]) {
      const count = await frame.getByRole('button', { name, exact: true }).count();
      expect(count, name).toBe(name.startsWith('Ask for all') ? 0 : 1);
    }
    // Every button's name begins with the words it shows (so that speech input finds it by them).
    const names = await frame.$$eval('button', (all) =>
      all.map((b) => ({ text: b.textContent ?? '', name: b.getAttribute('aria-label') ?? b.textContent ?? '' })),
    );
    for (const { text, name } of names) expect(name.startsWith(text), name).toBe(true);
    // Tab walks the controls in the order they are read.
    const controls = await frame.$$eval('button, select', (all) =>
      all.map((e) => e.getAttribute('aria-label') ?? e.id ?? e.textContent),
    );
    await frame.locator('button').first().focus();
    const walked = [];
    for (let i = 0; i < controls.length; i++) {
      walked.push(
        await frame.evaluate(() => {
          const e = document.activeElement!;
          return e.getAttribute('aria-label') ?? e.id ?? e.textContent;
        }),
      );
      await h.page.keyboard.press('Tab');
    }
    expect(walked).toEqual(controls);
    const road = named(result, 'roadaddr')!;
    const korean = `${road.region.area1.name} ${road.region.area2.name} ${road.land.name} ${road.land.number1}`;
    await frame.getByRole('button', { name: 'Copy in Korean: the road address' }).click();
    await expect.poll(() => frame.innerText('#status')).toContain(korean);
    await frame.getByRole('button', { name: 'Copy romanised: the road address' }).click();
    await expect.poll(() => frame.innerText('#status')).toContain('6 Buljeong-ro, Seongnam-si Bundang-gu, Gyeonggi-do');
    // A host that grants no clipboard permission: the view copies another way, or says how, without an error.
    const bare = await h.show('bare', { coords: '127.10522,37.35951', orders: ALL }, { withoutPermissions: true });
    await bare.frame.getByRole('button', { name: 'Copy in Korean: the road address' }).click();
    await expect.poll(() => bare.frame.innerText('#status')).toContain(korean);
    expect(h.errors).toEqual([]);
    await h.context.close();
  });

  it("draws the operator's tiles, declared in the view's CSP, and fetches from nowhere else", async () => {
    const tiles = await tileServer();
    const tiled = await spawnServer({ SVC_MAP_TILES_URL: `${tiles.origin}/{z}/{x}/{y}.png` }, ['--sandbox']);
    try {
      const h = await openHost(browser, host.origin, tiled);
      const { frame, csp } = await h.show('tiles', { coords: '126.97843,37.56668', orders: ALL });
      expect(csp).toContain(`img-src data: ${tiles.origin}`);
      // Some tiles, and every one loaded: with none drawn yet, `every` alone holds at once (a loaded CI run saw it).
      await frame.waitForFunction(
        () => document.images.length > 0 && [...document.images].every((img) => img.complete && img.naturalWidth > 0),
        undefined,
        {
          polling: 100,
        },
      );
      // The browser tells of each request apart from the page's own work (a loaded CI run read none yet here): wait
      // until it has told of every tile the server was asked for.
      const viewRequests = () => h.requests.filter((r) => r.fromView);
      await expect
        .poll(() => viewRequests().length > 0 && viewRequests().length === tiles.asked.length, { timeout: 20_000 })
        .toBe(true);
      const fromView = viewRequests().map((r) => new URL(r.url));
      expect(fromView.every((u) => u.origin === tiles.origin && /^\/16\/\d+\/\d+\.png$/.test(u.pathname))).toBe(true);
      expect(h.requests.every((r) => [host.origin, tiles.origin].includes(new URL(r.url).origin))).toBe(true);
      expect(tiles.asked.length).toBe(fromView.length);
      expect(await frame.innerText('figcaption')).toBe(`Map tiles: ${tiles.origin}`);
      expect(h.errors).toEqual([]);
      await h.context.close();
    } finally {
      await tiled.close();
      tiles.server.close();
    }
  });
});
