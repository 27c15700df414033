/**
 * The view's map. With no tile server (the default) a schematic, drawn here and fetching nothing: the region levels of
 * the answer as nested frames around the point, each with the distance and direction of its centre. With the
 * operator's tile server, its tiles around the point as well (images from the one origin the page's CSP declares).
 */
import type { AnswerView, Coordinates } from './answer.js';
import { el, svgEl } from './dom.js';
import { direction, distanceM, distanceText, tileOf, type LonLat } from './geometry.js';

const LEVEL_NAMES = { 1: 'si/do', 2: 'si/gun/gu', 3: 'eup/myeon/dong', 4: 'ri' } as const;

export interface MapInput {
  answer: AnswerView;
  /** The asked point in WGS 84. */
  point: LonLat | undefined;
  wgs84(c: Coordinates | undefined): LonLat | undefined;
  tiles?: string;
}

export function drawMap(input: MapInput): HTMLElement {
  const figure = el('figure');
  if (input.tiles && input.point) figure.append(tileMap(input.tiles, input.point));
  figure.append(schematic(input));
  return figure;
}

const ZOOM = 16;
const TILE = 256;
const WIDTH = 300;
const HEIGHT = 220;

function tileMap(template: string, point: LonLat): HTMLElement {
  const origin = new URL(template.replace(/\{[zxy]\}/g, '0')).origin;
  const box = el('div', {
    class: 'tiles',
    role: 'img',
    'aria-label': `Map tiles around the point, from ${origin}`,
  });
  const { x, y } = tileOf(point, ZOOM);
  // The pixel of the point on the whole map at this zoom, and the page's left-top corner in it.
  const left = x * TILE - WIDTH / 2;
  const top = y * TILE - HEIGHT / 2;
  for (let tx = Math.floor(left / TILE); tx * TILE < left + WIDTH; tx++) {
    for (let ty = Math.floor(top / TILE); ty * TILE < top + HEIGHT; ty++) {
      const url = template.replace('{z}', String(ZOOM)).replace('{x}', String(tx)).replace('{y}', String(ty));
      const img = el('img', { src: url, alt: '', width: String(TILE), height: String(TILE) });
      img.style.left = `${tx * TILE - left}px`;
      img.style.top = `${ty * TILE - top}px`;
      box.append(img);
    }
  }
  box.append(el('span', { class: 'pin' }));
  const wrap = el('div');
  wrap.append(box, el('figcaption', {}, `Map tiles: ${origin}`));
  return wrap;
}

/** Nested frames, the largest area outside, the point inside the smallest. */
function schematic({ answer, point, wgs84 }: MapInput): HTMLElement {
  const levels = answer.areas;
  const inset = 16;
  const height = 40 + levels.length * 2 * inset + 24;
  const width = WIDTH;
  const where =
    levels.length > 0
      ? levels
          .map((a) => a.name)
          .reverse()
          .join(', in ')
      : 'no region';
  const svg = svgEl('svg', {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: 'img',
    'aria-label': `Schematic map: the point lies in ${where}`,
  });
  levels.forEach((area, i) => {
    const d = i * inset;
    svg.append(
      svgEl('rect', {
        x: d + 1,
        y: d + 1,
        width: width - 2 * d - 2,
        height: height - 2 * d - 2,
        rx: 8,
        fill: 'none',
        stroke: 'currentColor',
        'stroke-opacity': 0.35 + 0.15 * i,
      }),
    );
    const center = wgs84(area.center);
    const away =
      point && center ? ` · centre ${distanceText(distanceM(point, center))} ${direction(point, center)}` : '';
    svg.append(
      svgEl(
        'text',
        { x: d + 8, y: d + 12, 'font-size': 10, fill: 'currentColor' },
        `${area.name} (${LEVEL_NAMES[area.level]})${away}`,
      ),
    );
  });
  // With no region the label is long: the point goes to the left.
  const cx = levels.length > 0 ? width / 2 : 24;
  const cy = levels.length * inset + 26 + 10;
  svg.append(
    svgEl('circle', { cx, cy, r: 6, fill: '#dc2626', stroke: '#fff', 'stroke-width': 2 }),
    svgEl(
      'text',
      { x: cx + 12, y: cy + 4, 'font-size': 11, fill: 'currentColor' },
      levels.length > 0 ? 'the point' : 'the point: no region found',
    ),
  );
  const wrap = el('div');
  wrap.append(svg, el('figcaption', {}, 'Schematic: each frame is a region level of the answer, not drawn to scale.'));
  return wrap;
}
