import type { Icon } from '@modelcontextprotocol/server';
import type { ServiceId } from '../catalogue/types.js';

/**
 * The server's icon and one per service, all of one look: a rounded square in the service's colour with a white
 * line drawing, as small SVGs in `data:` URIs (hosts show them beside tools, resources and prompts). assets/icon.png,
 * for the MCP Bundle, is the server's icon rendered (npm run icons).
 */
interface Drawing {
  colour: string;
  /** Path data on a 24 x 24 grid, drawn as 2-unit white strokes. */
  path: string;
}

const SERVER: Drawing = { colour: '#334155', path: 'M12 4l7 4v8l-7 4-7-4V8zM12 12l7-4M12 12v8M12 12L5 8' };

const SERVICES: Record<ServiceId, Drawing> = {
  streaming: { colour: '#0e7490', path: 'M4 9c3-3 5 3 8 0s5 3 8 0M4 15c3-3 5 3 8 0s5 3 8 0' },
  translation: { colour: '#2563eb', path: 'M5 6h14v9h-8l-4 3v-3H5zM9 10h6' },
  dataflow: { colour: '#7c3aed', path: 'M5 6h5v5H5zM14 13h5v5h-5zM10 8.5h2a2 2 0 0 1 2 2v5' },
  maps: {
    colour: '#16a34a',
    path: 'M12 20s-6-5.5-6-10a6 6 0 0 1 12 0c0 4.5-6 10-6 10zM12 8a2 2 0 1 0 0 4a2 2 0 1 0 0-4z',
  },
  apigateway: { colour: '#ea580c', path: 'M5 19V9l7-4 7 4v10M9 19v-6h6v6' },
  datacatalog: { colour: '#0891b2', path: 'M6 5h12v14H6zM9 9h6M9 13h6' },
  bigdata: { colour: '#9333ea', path: 'M6 18v-7M10 18V7M14 18v-5M18 18V9' },
  recommendation: { colour: '#db2777', path: 'M12 5l2 4.3 4.7.6-3.4 3.3.8 4.7-4.1-2.2-4.1 2.2.8-4.7-3.4-3.3 4.7-.6z' },
  textgen: { colour: '#4f46e5', path: 'M6 18l3-1 9-9-2-2-9 9zM14 6l2 2' },
  search: { colour: '#0d9488', path: 'M11 6a5 5 0 1 0 0 10a5 5 0 1 0 0-10zM15 15l4 4' },
  kms: { colour: '#ca8a04', path: 'M9 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6zM12 12h7M16 12v3M19 12v2' },
};

/** The SVG document of a drawing. */
export function svg({ colour, path }: Drawing): string {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">' +
    `<rect width="24" height="24" rx="5" fill="${colour}"/>` +
    `<path d="${path}" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>`
  );
}

const icon = (drawing: Drawing): Icon[] => [
  {
    src: `data:image/svg+xml;base64,${Buffer.from(svg(drawing), 'utf8').toString('base64')}`,
    mimeType: 'image/svg+xml',
    sizes: ['any'],
  },
];

export const SERVER_ICON_SVG = svg(SERVER);
export const serverIcons = (): Icon[] => icon(SERVER);
export const serviceIcons = (service: ServiceId): Icon[] => icon(SERVICES[service]);
