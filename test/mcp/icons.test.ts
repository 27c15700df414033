/** Icons (issue 12): the server, every tool, resource and prompt show one, of the service they belong to. */
import type { Icon } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/catalogue.js';
import { connect, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await connect();
});
afterAll(async () => {
  await h?.close();
});

/** The drawing behind an icon, with its colour: icons of one service are the same, of two services different. */
function svgOf(icons: Icon[] | undefined): string {
  expect(icons).toHaveLength(1);
  const [icon] = icons!;
  expect(icon).toMatchObject({ mimeType: 'image/svg+xml', sizes: ['any'] });
  expect(icon!.src).toMatch(/^data:image\/svg\+xml;base64,/);
  const svg = Buffer.from(icon!.src.split(',')[1]!, 'base64').toString('utf8');
  expect(svg).toMatch(
    /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="5" fill="#[0-9a-f]{6}"\/><path d="[^"]+" fill="none" stroke="#fff"/,
  );
  expect(svg.length).toBeLessThan(600);
  return svg;
}

it('the server has an icon and a description', () => {
  const info = h.client.getServerVersion()!;
  svgOf(info.icons);
  expect(info.description).toMatch(/fifteen operations of eleven platform services/);
});

it('every tool shows the icon of its service: one per service, all different', async () => {
  const { tools } = await h.client.listTools();
  const byService = new Map<string, string>();
  for (const op of CATALOGUE) {
    const svg = svgOf(tools.find((t) => t.name === op.name)!.icons);
    if (byService.has(op.service)) expect(svg, op.name).toBe(byService.get(op.service));
    byService.set(op.service, svg);
  }
  expect(new Set(byService.values()).size).toBe(11);
  expect(svgOf(tools.find((t) => t.name === 'translate_and_summarize')!.icons)).toBe(byService.get('translation'));
});

it('every resource, template and prompt has an icon', async () => {
  for (const r of (await h.client.listResources()).resources) svgOf(r.icons);
  for (const t of (await h.client.listResourceTemplates()).resourceTemplates) svgOf(t.icons);
  const { prompts } = await h.client.listPrompts();
  expect(prompts.map((p) => p.name).sort()).toEqual([
    'localize_place',
    'summarize_and_translate',
    'translate_and_summarize',
  ]);
  for (const p of prompts) {
    svgOf(p.icons);
    expect(p.arguments?.length).toBeGreaterThan(0);
  }
  // The arguments as the SDK would list them: described, required where not optional.
  expect(prompts.find((p) => p.name === 'localize_place')!.arguments).toEqual([
    {
      name: 'coords',
      description: '"x,y" of the place; for EPSG:4326 longitude,latitude, e.g. 127.1054,37.3595',
      required: true,
    },
    { name: 'target', description: 'Language to give the address in, e.g. en, ja, zh-CN', required: true },
    {
      name: 'sourcecrs',
      description: 'Coordinate system of coords: EPSG:4326 (default), EPSG:3857 or SVC:2048 (UTM-K)',
      required: false,
    },
  ]);
});
