import { ProtocolError } from '@modelcontextprotocol/server';
import type { Server, ReadResourceResult, Resource, ResourceTemplateType } from '@modelcontextprotocol/server';
import { LANGUAGE_CODES } from '../catalogue/index.js';
import type { ServiceId } from '../catalogue/types.js';
import type { CompletionSources } from './completion.js';
import { serviceIcons } from './icons.js';
import { completeLanguage } from './language-completion.js';
import {
  aiFiltersDoc,
  coordinateSystemsDoc,
  jobStatesDoc,
  languagePairsDoc,
  targetsDoc,
  tokenizerLanguagesDoc,
} from './reference-data.js';
import { RPC_ERROR } from '../jsonrpc-errors.js';
import { createCompletion } from '../catalogue/textgen.js';
import { translateText } from '../catalogue/translation.js';
import { reverseGeocode } from '../catalogue/maps.js';
import { updateSchema } from '../catalogue/search.js';
import { updateJobExecutionOptions } from '../catalogue/dataflow.js';
import type { AppView } from './app-views/app-views.js';

const JSON_TYPE = 'application/json';

interface StaticResource {
  name: string;
  uri: string;
  title: string;
  /** Names a tool only where it is enabled (see ToolWords). */
  description(tool: ToolWords): string;
  doc(): unknown;
  /** Whose icon it shows. */
  service: ServiceId;
}

/** `tool(name, otherwise)`: the tool's name where it is enabled on this server, else words naming no hidden tool. */
type ToolWords = (name: string, otherwise: string) => string;

/** The reference tables agents need to call the tools right, without spending a tool call. */
const STATIC_RESOURCES: readonly StaticResource[] = [
  {
    name: 'tokenizer-languages',
    uri: 'svc://search/tokenizer-languages',
    title: 'Search tokenizer languages',
    description: (tool) =>
      'The six morphological-analysis languages of the search service with their index processor (type, method, ' +
      `option), usable as an index option of a search domain's schema (${tool(updateSchema.name, 'search schema edits')}).`,
    doc: tokenizerLanguagesDoc,
    service: 'search',
  },
  {
    name: 'language-pairs',
    uri: 'svc://translation/language-pairs',
    title: 'Translation language pairs',
    description: (tool) =>
      `Every direction ${tool(translateText.name, 'the translation service')} sends, with what backs it ` +
      '(documented, documented in reverse, not documented) and its glossary/replaceInfo, span-tag and honorific ' +
      'support, plus the language codes and names. One source: svc://translation/language-pairs/{source}.',
    doc: languagePairsDoc,
    service: 'translation',
  },
  {
    name: 'coordinate-systems',
    uri: 'svc://maps/coordinate-systems',
    title: 'Reverse-geocoding coordinate systems',
    description: (tool) =>
      `The coordinate systems of ${tool(reverseGeocode.name, 'reverse geocoding')} (sourcecrs/targetcrs): ` +
      'EPSG:4326, EPSG:3857 and UTM-K (SVC:2048) with its projection parameters (which are not those of the ' +
      'standard UTM-K, EPSG:5179: read the warning), and how coords are written.',
    doc: coordinateSystemsDoc,
    service: 'maps',
  },
  {
    name: 'ai-filters',
    uri: 'svc://textgen/ai-filters',
    title: 'Text-generation AI filter categories',
    description: (tool) =>
      `The AI filter categories of ${tool(createCompletion.name, 'text generation')} (groupName, name, ` +
      'meaning) and what the scores 0, 1 and 2 mean.',
    doc: aiFiltersDoc,
    service: 'textgen',
  },
  {
    name: 'job-states',
    uri: 'svc://dataflow/job-states',
    title: 'Data-flow job states',
    description: (tool) => {
      const returned = tool(updateJobExecutionOptions.name, '');
      return `The status values of a data-flow job${returned ? ` (as returned by ${returned})` : ''} and their meanings.`;
    },
    doc: jobStatesDoc,
    service: 'dataflow',
  },
];

const PAIRS_TEMPLATE = 'svc://translation/language-pairs/{source}';

const json = (uri: string, doc: unknown): ReadResourceResult => ({
  contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(doc, null, 2) }],
});

/** The part of the template's URIs before {source}. */
const PAIRS_PREFIX = PAIRS_TEMPLATE.slice(0, PAIRS_TEMPLATE.indexOf('{'));

/**
 * Registers the reference resources and the language-pairs template on the SDK's low-level Server, and returns
 * what completion/complete needs to know of them (the template's `source` completes to language codes).
 */
export function registerResources(
  server: Server,
  enabled: (tool: string) => boolean,
  appViews: readonly AppView[] = [],
): Pick<CompletionSources, 'templates' | 'resources'> {
  const tool: ToolWords = (name, otherwise) => (enabled(name) ? name : otherwise);
  const byUri = new Map(STATIC_RESOURCES.map((r) => [r.uri, r]));
  // A view is served where its tool is (the ui:// resource of a hidden tool would name it).
  const views = new Map(appViews.filter((v) => enabled(v.tool)).map((v) => [v.resource.uri, v]));
  // The list never changes while the server runs.
  server.registerCapabilities({ resources: { listChanged: false } });
  server.setRequestHandler('resources/list', () => ({
    resources: STATIC_RESOURCES.map((r): Resource => ({
      uri: r.uri,
      name: r.name,
      title: r.title,
      description: r.description(tool),
      mimeType: JSON_TYPE,
      icons: serviceIcons(r.service),
    })).concat([...views.values()].map((v) => v.resource)),
  }));
  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: [
      {
        name: 'language-pairs-by-source',
        uriTemplate: PAIRS_TEMPLATE,
        title: 'Translation targets of one source language',
        description:
          `The targets ${tool(translateText.name, 'the translation service')} sends one source language to,` +
          ' with what backs each direction and its ' +
          'glossary/replaceInfo, span-tag and honorific support, and the notes of the whole resource. source is a ' +
          'language code, e.g. ko, en, ja, zh-CN.',
        mimeType: JSON_TYPE,
        icons: serviceIcons('translation'),
      } satisfies ResourceTemplateType,
    ],
  }));
  server.setRequestHandler('resources/read', (request) => {
    const uri = request.params.uri;
    const fixed = byUri.get(uri);
    if (fixed) return json(uri, fixed.doc());
    const view = views.get(uri);
    if (view) return view.read();
    const rest = uri.startsWith(PAIRS_PREFIX) ? uri.slice(PAIRS_PREFIX.length) : '';
    if (rest === '' || rest.includes('/'))
      throw new ProtocolError(RPC_ERROR.ResourceNotFound, `Resource ${uri} not found`, { uri });
    const source = decoded(rest);
    const doc = targetsDoc(source);
    if (!doc) {
      throw new ProtocolError(
        RPC_ERROR.ResourceNotFound,
        `Unknown source language "${source}" in ${uri}: use one of ${LANGUAGE_CODES.join(', ')} ` +
          '(auto is not a language; with auto any of them can be a target).',
        { uri },
      );
    }
    return json(uri, doc);
  });
  return { templates: new Map([[PAIRS_TEMPLATE, { source: completeLanguage }]]), resources: new Set(byUri.keys()) };
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
