import { McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LANGUAGE_CODES } from '../catalogue/index.js';
import type { ServiceId } from '../catalogue/types.js';
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

const JSON_TYPE = 'application/json';

/** MCP's "resource not found" error code. */
const RESOURCE_NOT_FOUND = -32002;

interface StaticResource {
  name: string;
  uri: string;
  title: string;
  description: string;
  doc(): unknown;
  /** Whose icon it shows. */
  service: ServiceId;
}

/** The reference tables agents need to call the tools right, without spending a tool call. */
const STATIC_RESOURCES: readonly StaticResource[] = [
  {
    name: 'tokenizer-languages',
    uri: 'svc://search/tokenizer-languages',
    title: 'Search tokenizer languages',
    description:
      'The six morphological-analysis languages of the search service with their index processor (type, method, ' +
      'option), usable as an index option when creating a search domain schema.',
    doc: tokenizerLanguagesDoc,
    service: 'search',
  },
  {
    name: 'language-pairs',
    uri: 'svc://translation/language-pairs',
    title: 'Translation language pairs',
    description:
      'Every direction translation_translate_text supports (both ways), with glossary/replaceInfo and honorific ' +
      'support per direction, plus the language codes and names. One source: svc://translation/language-pairs/{source}.',
    doc: languagePairsDoc,
    service: 'translation',
  },
  {
    name: 'coordinate-systems',
    uri: 'svc://maps/coordinate-systems',
    title: 'Reverse-geocoding coordinate systems',
    description:
      'The coordinate systems of maps_reverse_geocode (sourcecrs/targetcrs): EPSG:4326, EPSG:3857 and UTM-K ' +
      '(SVC:2048) with its projection parameters, and how coords are written.',
    doc: coordinateSystemsDoc,
    service: 'maps',
  },
  {
    name: 'ai-filters',
    uri: 'svc://textgen/ai-filters',
    title: 'Text-generation AI filter categories',
    description:
      'The AI filter categories of textgen_create_completion (groupName, name, meaning) and what the scores 0, 1 and 2 mean.',
    doc: aiFiltersDoc,
    service: 'textgen',
  },
  {
    name: 'job-states',
    uri: 'svc://dataflow/job-states',
    title: 'Data-flow job states',
    description: 'The status values of a data-flow job (as returned by dataflow_update_job_execution_options) and their meanings.',
    doc: jobStatesDoc,
    service: 'dataflow',
  },
];

const PAIRS_TEMPLATE = 'svc://translation/language-pairs/{source}';

const json = (uri: string, doc: unknown): ReadResourceResult => ({
  contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(doc, null, 2) }],
});

/** Registers the reference resources and the language-pairs template (with completion of `source`). */
export function registerResources(server: McpServer): void {
  for (const r of STATIC_RESOURCES) {
    server.registerResource(r.name, r.uri, { title: r.title, description: r.description, mimeType: JSON_TYPE, icons: serviceIcons(r.service) }, (uri) =>
      json(uri.href, r.doc()),
    );
  }

  server.registerResource(
    'language-pairs-by-source',
    new ResourceTemplate(PAIRS_TEMPLATE, { list: undefined, complete: { source: completeLanguage } }),
    {
      title: 'Translation targets of one source language',
      description:
        'The target languages one source language can be translated into, with glossary/replaceInfo and honorific ' +
        'support per direction. source is a language code, e.g. ko, en, ja, zh-CN.',
      mimeType: JSON_TYPE,
      icons: serviceIcons('translation'),
    },
    (uri, variables) => {
      const source = decoded(variables.source);
      const doc = targetsDoc(source);
      if (!doc) {
        throw new McpError(
          RESOURCE_NOT_FOUND,
          `Unknown source language "${source}" in ${uri.href}: use one of ${LANGUAGE_CODES.join(', ')} ` +
            '(auto is not a language; with auto any of them can be a target).',
          { uri: uri.href },
        );
      }
      return json(uri.href, doc);
    },
  );
  // The list never changes while the server runs (the SDK declares listChanged: true).
  server.server.registerCapabilities({ resources: { listChanged: false } });
}

function decoded(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
