/**
 * The page's script (bundled inline into the page by scripts/build.mjs; runs in the host's sandboxed frame): shows one
 * answer of maps_reverse_geocode, as the host hands it over (ui/notifications/tool-input and tool-result), and lets
 * the user ask again through the host (tools/call, which reaches the server's one pipeline like any call of the
 * model) or copy an address. It fetches nothing itself: the map is drawn here, or made of the operator's tiles.
 */
import {
  App,
  applyDocumentTheme,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/client';
import proj4 from 'proj4';
import type { ViewConfig } from '../view-config.js';
import { answerOf, askedOf, type Address, type AnswerView, type Asked, type Coordinates } from './answer.js';
import { drawMap } from './map.js';
import { romanisedAddress } from './romanise.js';
import { el, field } from './dom.js';

const ALL_ORDERS = 'legalcode,admcode,addr,roadaddr';

const config = JSON.parse(document.getElementById('view-config')?.textContent ?? 'null') as ViewConfig | null;
const answerBox = document.getElementById('answer')!;
const subtitle = document.getElementById('subtitle')!;
const status = document.getElementById('status')!;

const app = new App({ name: 'svc-platform-mcp reverse-geocode view', version: '1.0.0' }, {}, { autoResize: true });

/** This view's call: its arguments (from the host, then as the view last asked) and whether a call of it runs. */
const state: { args?: Record<string, unknown>; busy: boolean } = { busy: false };

app.ontoolinput = ({ arguments: args }) => {
  state.args = args;
};
app.ontoolresult = (result) => {
  render(state.args, result as CallToolResult, undefined);
};
app.ontoolcancelled = () => {
  subtitle.textContent = 'The call was cancelled.';
};
app.onhostcontextchanged = (context) => theme(context);

// Handlers first, then connect: the host sends the call's input and result once the view is initialised.
void app.connect().then(
  () => theme(app.getHostContext()),
  (error: unknown) => {
    subtitle.textContent = `This view could not reach its host: ${String(error)}`;
  },
);

function theme(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

/** WGS 84 [lon, lat] of a point in one of the service's systems, by the definitions the server put in the page. */
function wgs84(point: Coordinates | undefined): [number, number] | undefined {
  if (!point) return undefined;
  const definition = config?.projections[point.crs];
  if (!definition) return undefined;
  if (point.crs === 'EPSG:4326') return [point.x, point.y];
  const [lon, lat] = proj4(definition, config!.projections['EPSG:4326']!, [point.x, point.y]);
  return Number.isFinite(lon) && Number.isFinite(lat) ? [lon!, lat!] : undefined;
}

const degrees = (value: number) => value.toFixed(7);
const pair = (c: Coordinates & { written?: string }) => `${c.written ?? `${c.x}, ${c.y}`} (${c.crs})`;
function withWgs84(c: Coordinates & { written?: string }): string {
  if (c.crs === 'EPSG:4326') return pair(c);
  const w = wgs84(c);
  return w ? `${pair(c)}; WGS 84: ${degrees(w[0])}, ${degrees(w[1])}` : pair(c);
}

/** The whole view for one answer; `how` says when the view itself asked for it. */
function render(args: Record<string, unknown> | undefined, result: CallToolResult, how: string | undefined): void {
  const asked = askedOf(args);
  answerBox.replaceChildren();
  const point = asked.point;
  subtitle.textContent = point
    ? `The point ${point.written} (${point.crs})${how ? `, ${how}` : ''}`
    : 'The point of this call is not known to the view.';
  if (result.isError) {
    const text = result.content?.map((c) => (c.type === 'text' ? c.text : '')).join('\n') ?? '';
    answerBox.append(el('p', { class: 'notice' }, 'The call failed:'), el('pre', {}, text));
    return;
  }
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  if (!structured || 'answeredAs' in structured) {
    const text = result.content?.map((c) => (c.type === 'text' ? c.text : '')).join('\n') ?? '';
    answerBox.append(
      el(
        'p',
        { class: 'notice' },
        'This answer was asked as text (XML or JSONP): the view shows JSON answers. As sent:',
      ),
      el('pre', {}, text),
    );
    actions(asked);
    return;
  }
  const answer = answerOf(structured, asked);
  const notices = nothingHere(answer, asked);
  const layout = el('div', { class: 'layout' });
  layout.append(drawMap({ answer, point: wgs84(point), wgs84, tiles: config?.tiles }), details(answer, asked));
  answerBox.append(...notices, layout);
  actions(asked);
}

/** Rule 1 and status 3 said plainly: no address is an answer, not a failure. */
function nothingHere(answer: AnswerView, asked: Asked): HTMLElement[] {
  if (answer.resultCount === 0) {
    const { code, name, message } = answer.status ?? {};
    const said = name ? ` (status ${code ?? '?'}, ${name}${message ? `: ${message}` : ''})` : '';
    const why = asked.orders.some((o) => o === 'legalcode' || o === 'admcode')
      ? 'Points at sea have none.'
      : 'Only addresses were asked for: near coasts the dong may resolve where they do not.';
    return [el('p', { class: 'notice' }, `No address here: the service found nothing at this point${said}. ${why}`)];
  }
  if (!asked.orders.includes('addr') && !asked.orders.includes('roadaddr')) {
    return [
      el('p', { class: 'notice' }, `This call asked only for ${asked.orders.join(' and ')}: no address was asked for.`),
    ];
  }
  if (!answer.road && !answer.lot) {
    return [
      el(
        'p',
        { class: 'notice' },
        'No road or land-lot address here: only the dong resolves (as near coasts and in new neighbourhoods).',
      ),
    ];
  }
  return [];
}

function details(answer: AnswerView, asked: Asked): HTMLElement {
  const dl = el('dl', { 'aria-label': 'What the answer holds for the point' });
  const dong = (label: string, d: AnswerView['legal']) => {
    if (!d) return;
    field(
      dl,
      label,
      el('span', {}, d.name || '(no name)', ' ', el('span', { class: 'code' }, `${d.code} ${d.type}`.trim())),
    );
  };
  if (answer.areas.length > 0) {
    field(dl, 'Region', answer.areas.map((a) => (a.alias ? `${a.name} (${a.alias})` : a.name)).join(' › '));
  }
  dong('Statutory dong', answer.legal);
  dong('Administrative dong', answer.admin);
  if (answer.road) field(dl, 'Road address', address(answer.road, 'road address'));
  else if (asked.orders.includes('roadaddr')) field(dl, 'Road address', 'none at this point');
  if (answer.lot) field(dl, 'Land-lot address', address(answer.lot, 'land-lot address'));
  else if (asked.orders.includes('addr')) field(dl, 'Land-lot address', 'none at this point');
  if (answer.road?.building) field(dl, 'Building', answer.road.building);
  if (answer.road?.zipcode) field(dl, 'Postal code', answer.road.zipcode);
  if (asked.point) field(dl, 'Point asked', withWgs84(asked.point));
  const center = answer.road?.center ?? answer.lot?.center;
  if (center) field(dl, 'Address centre', withWgs84(center));
  const dongCenter = answer.areas.at(-1)?.center;
  if (dongCenter) field(dl, `Centre of ${answer.areas.at(-1)!.name}`, withWgs84(dongCenter));
  field(dl, 'Results', `${answer.resultCount} (${asked.orders.join(', ')}; coordinates in ${asked.targetcrs})`);
  return dl;
}

/** The Korean address, its romanised form, and buttons that copy either. */
function address(a: Address, what: string): HTMLElement {
  const latin = romanisedAddress(a.parts);
  return el(
    'span',
    {},
    el('span', { lang: 'ko' }, a.korean),
    el('br'),
    el('span', { class: 'latin', lang: 'ko-Latn' }, latin),
    el('br'),
    el(
      'span',
      { class: 'copy' },
      copyButton('Copy in Korean', `Copy in Korean: the ${what}`, a.korean),
      copyButton('Copy romanised', `Copy romanised: the ${what}`, latin),
    ),
  );
}

/** The visible text begins the accessible name (which says which address), so that speech input finds it. */
function copyButton(text: string, label: string, value: string): HTMLElement {
  const button = el('button', { type: 'button', 'aria-label': label }, text);
  button.addEventListener('click', () => void copy(value));
  return button;
}

/** The clipboard API where the host's frame allows it, else the older copy command; else the user is told. */
async function copy(value: string): Promise<void> {
  // Asked only where the frame's permissions policy allows it: a blocked call is a console error in chromium.
  const policy = (document as { featurePolicy?: { allowsFeature(feature: string): boolean } }).featurePolicy;
  if (navigator.clipboard && (policy?.allowsFeature('clipboard-write') ?? true)) {
    try {
      await navigator.clipboard.writeText(value);
      status.textContent = `Copied: ${value}`;
      return;
    } catch {
      // Refused (no user activation, or the host's choice): try the copy command.
    }
  }
  const area = el('textarea', { 'aria-hidden': 'true', readonly: '' }) as HTMLTextAreaElement;
  area.value = value;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const done = document.execCommand('copy');
  area.remove();
  status.textContent = done ? `Copied: ${value}` : `This host does not let the view copy; select the text: ${value}`;
}

/** Ask again through the host: in another CRS, or with the addresses the first call did not ask for. */
function actions(asked: Asked): void {
  if (!config || !state.args) return;
  const canCall = app.getHostCapabilities()?.serverTools !== undefined;
  const box = el('div', { class: 'actions', role: 'group', 'aria-label': 'Ask again through the host' });
  const others = Object.keys(config.projections).filter((code) => code !== asked.targetcrs);
  const select = el('select', { id: 'crs' }, ...others.map((code) => el('option', { value: code }, code)));
  const ask = el('button', { type: 'button' }, 'Ask again');
  ask.addEventListener('click', () => {
    const targetcrs = (select as HTMLSelectElement).value;
    void callAgain({ targetcrs }, `asked again by the view with coordinates in ${targetcrs}`);
  });
  box.append(el('label', { for: 'crs' }, 'Coordinates in'), select, ask);
  if (ALL_ORDERS.split(',').some((order) => !asked.orders.includes(order))) {
    const more = el('button', { type: 'button' }, 'Ask for all four: dong codes and addresses');
    more.addEventListener(
      'click',
      () => void callAgain({ orders: ALL_ORDERS }, `asked again by the view for ${ALL_ORDERS}`),
    );
    box.append(more);
  }
  for (const control of box.querySelectorAll('button, select')) {
    if (!canCall) (control as HTMLButtonElement).disabled = true;
  }
  answerBox.append(box);
  if (!canCall) answerBox.append(el('p', { class: 'sub' }, 'This host does not let views call tools.'));
}

/** The same call with some arguments changed; always JSON, which the view can show. */
async function callAgain(change: Record<string, string>, how: string): Promise<void> {
  if (state.busy || !config) return;
  state.busy = true;
  answerBox.setAttribute('aria-busy', 'true');
  status.textContent = 'Asking through the host…';
  const { callback: _, ...rest } = state.args ?? {};
  const args = { ...rest, output: 'json', ...change };
  try {
    const result = await app.callServerTool({ name: config.tool, arguments: args });
    state.args = args;
    render(args, result, how);
    status.textContent = `Answer shown: ${how}.`;
    document.getElementById('title')?.focus();
  } catch (error) {
    status.textContent = `The host did not run the call: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    state.busy = false;
    answerBox.removeAttribute('aria-busy');
  }
}
