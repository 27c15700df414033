import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { ReadResourceResult, Resource, Tool } from '@modelcontextprotocol/server';
import { reverseGeocode } from '../../catalogue/maps.js';
import { PROJ_DEFINITIONS } from '../../catalogue/projections.js';
import type { AppViewsOptions } from '../../config/index.js';
import { serviceIcons } from '../icons.js';
import { VIEW_CONFIG_ELEMENT, type ViewConfig } from './view-config.js';

/**
 * MCP Apps views (the `io.modelcontextprotocol/ui` extension, SEP-1865, as the ext-apps project publishes it): a tool
 * declares a `ui://` HTML resource in `_meta.ui.resourceUri`, and a host that renders apps shows it beside each of
 * the tool's results. The tool's result is the same with or without a view: the declaration is all a host without
 * the extension sees of it.
 */
export interface AppView {
  /** The tool whose results it shows. */
  tool: string;
  /** Its entry in resources/list. */
  resource: Resource;
  /** resources/read's answer: the page, with the operator's settings and the content-security policy it needs. */
  read(): Promise<ReadResourceResult>;
}

/** Reads one file the build wrote into dist/app-views/ (scripts/build.mjs): the page of a view, script inline. */
export type ReadViewFile = (file: string) => Promise<string>;

/** The view of maps_reverse_geocode; built by scripts/build.mjs from ./reverse-geocode/. */
export const REVERSE_GEOCODE_VIEW = {
  uri: 'ui://svc-platform-mcp/maps/reverse-geocode.html',
  file: 'reverse-geocode.html',
} as const;

/** The views this process serves: none when the operator turned them off. */
export function appViews(options: AppViewsOptions, readFile: ReadViewFile | undefined): AppView[] {
  if (!options.enabled) return [];
  const config: ViewConfig = {
    tool: reverseGeocode.name,
    projections: PROJ_DEFINITIONS,
    ...(options.tiles ? { tiles: options.tiles.template } : {}),
  };
  // No domain unless the operator configured tiles: then images from that origin, and nothing else.
  const csp = options.tiles ? { resourceDomains: [options.tiles.origin] } : {};
  let page: Promise<string> | undefined;
  const { uri, file } = REVERSE_GEOCODE_VIEW;
  return [
    {
      tool: reverseGeocode.name,
      resource: {
        uri,
        name: 'reverse-geocode-view',
        title: 'Reverse-geocoding map view',
        description:
          `The MCP Apps view of ${reverseGeocode.name}: the point, its region levels and addresses, drawn by the host ` +
          'beside each result.',
        mimeType: RESOURCE_MIME_TYPE,
        icons: serviceIcons(reverseGeocode.service),
      },
      async read() {
        // Read once per process; a failed read is tried again by the next request.
        page ??= withConfig(readFile, file, config).catch((error: unknown) => {
          page = undefined;
          throw error;
        });
        return {
          contents: [
            {
              uri,
              mimeType: RESOURCE_MIME_TYPE,
              text: await page,
              _meta: { ui: { csp, permissions: { clipboardWrite: {} }, prefersBorder: true } },
            },
          ],
        };
      },
    },
  ];
}

/** The tool's definition with its view declared (`_meta.ui.resourceUri`), or as it is when it has none. */
export function declaringView(tool: Tool, views: readonly AppView[]): Tool {
  const view = views.find((v) => v.tool === tool.name);
  if (!view) return tool;
  return { ...tool, _meta: { ...tool._meta, ui: { resourceUri: view.resource.uri } } };
}

async function withConfig(readFile: ReadViewFile | undefined, file: string, config: ViewConfig): Promise<string> {
  if (!readFile) throw new Error(`the app view ${file} is not available to this server`);
  const html = await readFile(file);
  if (!html.includes(VIEW_CONFIG_ELEMENT)) throw new Error(`${file} has no settings element: run \`npm run build\``);
  // `<` escaped: the settings cannot end the element they are in.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return html.replace(VIEW_CONFIG_ELEMENT, VIEW_CONFIG_ELEMENT.replace('>null<', `>${json}<`));
}
