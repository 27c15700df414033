import {
  AI_FILTERS,
  AI_FILTER_SCORES,
  BASIS_MEANINGS,
  COORDINATE_SYSTEMS,
  CRS_CODES,
  JOB_STATES,
  LANGUAGE_CODES,
  LANGUAGE_NAMES,
  PAIR_NOTES,
  SOURCE_CODES,
  STANDARD_UTM_K,
  TOKENIZER_LANGUAGES,
  directionInfo,
  directions,
  isLanguage,
  targetsOf,
  type LanguageCode,
} from '../catalogue/index.js';
import { createCompletion } from '../catalogue/textgen.js';
import { listTokenizerLanguages, updateSchema } from '../catalogue/search.js';
import { reverseGeocode } from '../catalogue/maps.js';
import { updateJobExecutionOptions } from '../catalogue/dataflow.js';

/**
 * The JSON documents behind the reference resources. Built from the catalogue's tables (no second copy of the spec's
 * data). Pure.
 */

export function tokenizerLanguagesDoc() {
  return {
    languages: TOKENIZER_LANGUAGES.map((entry) => ({ ...entry })),
    usage:
      'Each entry is an index processor for one language: use its type, method and option as an element of ' +
      `document.indexes[].buildInfos[].indexProcessors when adding an index with ${updateSchema.name} (no tool of ` +
      `this server creates a search domain). The same list is what ${listTokenizerLanguages.name} returns.`,
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
    notes: [...PAIR_NOTES],
  };
}

const metres = (n: number) => n.toLocaleString('en-US');

/**
 * SVC:2048 as the spec gives it is not the UTM-K most data is in: a user with EPSG:5179 coordinates who passes them as
 * SVC:2048 would be a million metres off on both axes, if the service follows its documentation.
 */
function utmKWarning(): string {
  const spec = COORDINATE_SYSTEMS['SVC:2048'].parameters;
  const standard = STANDARD_UTM_K;
  return (
    `SVC:2048 as the service documents it has false easting ${metres(spec.falseEasting)} and false northing ` +
    `${metres(spec.falseNorthing)}: the reverse of the standard UTM-K, ${standard.code}, which has false easting ` +
    `${metres(standard.falseEasting)} and false northing ${metres(standard.falseNorthing)}. By the documentation, ` +
    `coordinates in ${standard.code} are not SVC:2048 coordinates (x would be ${metres(spec.falseEasting - standard.falseEasting)} m ` +
    `too small and y ${metres(standard.falseNorthing - spec.falseNorthing)} m too large): convert them to EPSG:4326 ` +
    'and send those, or ask the user which system the coordinates are in. The sandbox follows the documentation.'
  );
}

export function coordinateSystemsDoc() {
  return {
    coordinateSystems: CRS_CODES.map((code) => ({ code, ...COORDINATE_SYSTEMS[code] })),
    warning: utmKWarning(),
    defaults: { sourcecrs: 'EPSG:4326', targetcrs: 'EPSG:4326' },
    usage:
      `${reverseGeocode.name} takes coords as "x,y" in sourcecrs (for EPSG:4326: longitude,latitude, e.g. ` +
      '"127.1054,37.3595") and returns area and land centres in targetcrs. An area with no data has an empty crs and ' +
      'x = y = 0.0.',
  };
}

export function aiFiltersDoc() {
  return {
    filters: AI_FILTERS.map((f) => ({ ...f })),
    scores: AI_FILTER_SCORES.map((s) => ({ ...s })),
    scoreMeaning: 'the degree to which the text corresponds to the category',
    usage:
      `${createCompletion.name} returns result.aiFilters (when includeAiFilters is true, the default): one ` +
      '{groupName, name, score} per category. score is a string, and a lower score means a stronger match: treat "0" as ' +
      'a flag to review the text before using it.',
  };
}

export function jobStatesDoc() {
  return {
    states: JOB_STATES.map((s) => ({ ...s })),
    usage:
      `The status field of the job returned by ${updateJobExecutionOptions.name}. Transitions between states, and ` +
      'the effect of editing execution options on the status, are not documented: read the status from the answer ' +
      'rather than assuming one. Nor does the spec say whether the edits of a RUNNING job apply to the run under way ' +
      'or to the next one, or whether an option left out of the edit (numWorker, timeout) is kept or reset: the ' +
      "answer's runCondition shows the options the job has after the edit.",
  };
}
