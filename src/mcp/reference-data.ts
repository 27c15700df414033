import {
  AI_FILTERS,
  BASIS_MEANINGS,
  CRS_CODES,
  LANGUAGE_CODES,
  LANGUAGE_NAMES,
  PAIR_NOTES,
  SOURCE_CODES,
  TOKENIZER_LANGUAGES,
  directionInfo,
  directions,
  isLanguage,
  targetsOf,
  type LanguageCode,
} from '../catalogue/index.js';

/**
 * The JSON documents behind the reference resources. Built from the catalogue's tables (no second copy of the
 * spec's data), except where the catalogue has no table of its own (coordinate-system parameters, job states).
 * Pure.
 */

export function tokenizerLanguagesDoc() {
  return {
    languages: TOKENIZER_LANGUAGES.map((entry) => ({ ...entry })),
    usage:
      'Each entry is an index processor for one language: use its type, method and option as an element of ' +
      'document.indexes[].buildInfos[].indexProcessors when creating a search domain or adding an index with ' +
      'search_update_schema. The same list is what search_list_tokenizer_languages returns.',
  };
}

const language = (code: LanguageCode) => ({ code, name: LANGUAGE_NAMES[code] });

export function languagePairsDoc() {
  return {
    languages: LANGUAGE_CODES.map(language),
    sources: [...SOURCE_CODES],
    basisMeanings: { ...BASIS_MEANINGS },
    pairs: directions(),
    notes: [...PAIR_NOTES],
  };
}

/** Targets of one source language, or undefined when the source is not a language code of the service. */
export function targetsDoc(source: string) {
  if (!isLanguage(source)) return undefined;
  return {
    source: language(source),
    basisMeanings: { ...BASIS_MEANINGS },
    targets: targetsOf(source).map((target) => {
      const { basis, glossaryAndReplaceInfo, honorific } = directionInfo(source, target)!;
      return { ...language(target), basis, glossaryAndReplaceInfo, honorific };
    }),
  };
}

type CrsCode = (typeof CRS_CODES)[number];

/** The spec's coordinate-system table of E5 (the catalogue holds only the codes). */
const COORDINATE_SYSTEMS: Record<CrsCode, Record<string, unknown>> = {
  'EPSG:4326': {
    name: 'WGS 84 longitude and latitude',
    type: 'geographic',
    unit: 'degree',
    axes: 'x is longitude, y is latitude',
  },
  'EPSG:3857': {
    name: 'Web mercator',
    type: 'projected',
    datum: 'WGS 1984',
    unit: 'metre',
  },
  'SVC:2048': {
    name: 'UTM-K',
    type: 'projected',
    projection: 'Transverse Mercator',
    unit: 'metre',
    parameters: {
      centralMeridian: 127.5,
      latitudeOfOrigin: 38,
      falseEasting: 2_000_000,
      falseNorthing: 1_000_000,
      scaleFactor: 0.9996,
    },
  },
};

export function coordinateSystemsDoc() {
  return {
    coordinateSystems: CRS_CODES.map((code) => ({ code, ...COORDINATE_SYSTEMS[code] })),
    defaults: { sourcecrs: 'EPSG:4326', targetcrs: 'EPSG:4326' },
    usage:
      'maps_reverse_geocode takes coords as "x,y" in sourcecrs (for EPSG:4326: longitude,latitude, e.g. ' +
      '"127.1054,37.3595") and returns area and land centres in targetcrs. An area with no data has an empty crs and ' +
      'x = y = 0.0.',
  };
}

/** E12: `score` is the degree to which the text corresponds to the category. */
const SCORES = [
  { score: '0', degree: 'high' },
  { score: '1', degree: 'medium' },
  { score: '2', degree: 'low' },
];

export function aiFiltersDoc() {
  return {
    filters: AI_FILTERS.map((f) => ({ ...f })),
    scores: SCORES,
    scoreMeaning: 'the degree to which the text corresponds to the category',
    usage:
      'textgen_create_completion returns result.aiFilters (when includeAiFilters is true, the default): one ' +
      '{groupName, name, score} per category. score is a string, and a lower score means a stronger match: treat "0" as ' +
      'a flag to review the text before using it.',
  };
}

/** The spec's data-flow job states (States and transitions). */
const JOB_STATES = [
  { state: 'RUNNABLE', meaning: 'Job execution available' },
  { state: 'RUNNING', meaning: 'Job execution in progress' },
  { state: 'DELETED', meaning: 'Job being deleted or deletion completed' },
  { state: 'UNKNOWN', meaning: 'Other' },
  { state: 'DRAFT', meaning: 'Job edit incomplete' },
  { state: 'STOPPED', meaning: 'Job being stopped' },
  { state: 'EDITING', meaning: 'Job being edited (validation required)' },
] as const;

export function jobStatesDoc() {
  return {
    states: JOB_STATES.map((s) => ({ ...s })),
    usage:
      'The status field of the job returned by dataflow_update_job_execution_options. Transitions between states, and ' +
      'the effect of editing execution options on the status, are not documented: read the status from the answer ' +
      'rather than assuming one.',
  };
}
