import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Server, GetPromptResult, Icon, Prompt } from '@modelcontextprotocol/server';
import {
  LANGUAGE_CODES,
  LANGUAGE_NAMES,
  TEXT_LIMIT,
  codePoints,
  countedLength,
  isLanguage,
  spansHonoured,
  translationIssues,
  type LanguageCode,
  type SourceCode,
} from '../catalogue/translation-rules.js';
import { CRS_CODES, reverseGeocode } from '../catalogue/maps.js';
import { MAX_TEXT_LENGTH, chunkText } from './chunking.js';
import type { Completer, Completers } from './completion.js';
import { serviceIcons } from './icons.js';
import { completeSource, completeTarget, completeTargetOf } from './language-completion.js';
import { SUMMARY_LENGTHS, summaryCue, summaryParameters, summaryPrompt, type SummaryLength } from './summary-prompt.js';
import { WORKFLOW_TOOL_NAME } from './workflow-tool.js';
import { createCompletion } from '../catalogue/textgen.js';
import { SERVER_LIMITS } from '../catalogue/fields.js';
import { translateText } from '../catalogue/translation.js';

/**
 * Prompts: ready-made flows that drive the tools through the client's model. Prompt arguments are strings; the
 * language arguments offer completion limited to valid codes, and a target's completion follows the chosen source.
 * Served on the SDK's low-level Server, as the tools are: the list carries icons, and McpServer (with its zod
 * argument schemas) is not loaded at all.
 */

/** Completion over a fixed list of values, by case-insensitive prefix. */
const oneOf = (values: readonly string[]) => (typed: string) =>
  values.filter((v) => v.toLowerCase().startsWith(typed.trim().toLowerCase()));

/** One argument of a prompt: prompt arguments are strings, given or not. */
interface PromptArgument<Required extends boolean = boolean> {
  description: string;
  required: Required;
  complete?: Completer;
  /** Given, it must hold more than white space. */
  notBlank?: boolean;
  /** Given, it must be at most this many characters (code points, as the workflow tool's schema counts). */
  maxLength?: number;
}

const required = (description: string, complete?: Completer, notBlank = false): PromptArgument<true> => ({
  description,
  required: true,
  complete,
  notBlank,
});
const optional = (description: string, complete?: Completer): PromptArgument<false> => ({
  description,
  required: false,
  complete,
});

/** The values render() receives: a required argument is always there. */
type Values<Args extends Record<string, PromptArgument>> = {
  [K in keyof Args]: Args[K] extends PromptArgument<true> ? string : string | undefined;
};

/** A text to split and translate: bounded as the workflow tool's `text` is. */
const textArg = (what: string): PromptArgument<true> => ({
  ...required(`${what}, at most ${MAX_TEXT_LENGTH} characters`, undefined, true),
  maxLength: MAX_TEXT_LENGTH,
});
const targetArg = () =>
  required('Target language code, e.g. en, ko, ja, zh-CN (completion follows the source)', completeTarget);
const sourceArg = () => optional('Source language code, or auto to detect (default auto)', completeSource);
const lengthArg = () =>
  optional(
    'Summary length: short (1-2 sentences), medium (3-5, default) or long (a paragraph)',
    oneOf(SUMMARY_LENGTHS),
  );

interface RegisteredPrompt {
  listed: Prompt;
  args: Record<string, PromptArgument>;
  render(values: Record<string, string | undefined>): GetPromptResult;
}

/**
 * Registers the prompts whose tools are all enabled: a prompt never tells the model to call a tool it cannot see.
 * `enabled` answers for one tool name. Returns the completers of each prompt listed, for completion/complete.
 */
export function registerPrompts(server: Server, enabled: (tool: string) => boolean): ReadonlyMap<string, Completers> {
  const prompts = new Map<string, RegisteredPrompt>();
  const register = <Args extends Record<string, PromptArgument>>(
    name: string,
    config: { title: string; description: string; args: Args; icons: Icon[]; tools: string[] },
    render: (values: Values<Args>) => GetPromptResult,
  ) => {
    if (!config.tools.every(enabled)) return;
    const { title, description, args, icons } = config;
    const listed: Prompt = {
      name,
      title,
      description,
      icons,
      arguments: Object.entries(args).map(([argument, spec]) => ({
        name: argument,
        description: spec.description,
        required: spec.required,
      })),
    };
    prompts.set(name, { listed, args, render: render as RegisteredPrompt['render'] });
  };
  const workflowNote = enabled(WORKFLOW_TOOL_NAME);

  register(
    'translate_and_summarize',
    {
      title: 'Translate, then summarize',
      description:
        `Translate a text (split over the ${TEXT_LIMIT}-character limit at sentence boundaries) with ${translateText.name}, ` +
        `then summarize the translation in the target language with ${createCompletion.name}. The model makes each ` +
        'call itself, in view of the user; the tool of the same name does all of it in one call, on the server.',
      args: {
        text: textArg('The text to translate and summarize'),
        target: targetArg(),
        source: sourceArg(),
        length: lengthArg(),
        summarize: optional('false to translate only (default true)', oneOf(['true', 'false'])),
      },
      icons: serviceIcons('translation'),
      tools: [translateText.name, createCompletion.name],
    },
    (args) => {
      const { source, target } = languages(args.source, args.target);
      const length = summaryLength(args.length);
      return message(
        translateThenSummarize(args.text, source, target, summarizing(args.summarize) && length, workflowNote),
      );
    },
  );

  register(
    'summarize_and_translate',
    {
      title: 'Summarize, then translate the summary',
      description:
        `Summarize a text in its own language with ${createCompletion.name}, then translate only the summary with ` +
        `${translateText.name}: cheaper than translating a long text first.`,
      args: {
        text: textArg('The text to summarize and translate'),
        target: targetArg(),
        source: sourceArg(),
        length: lengthArg(),
      },
      icons: serviceIcons('textgen'),
      tools: [translateText.name, createCompletion.name],
    },
    (args) => {
      const { source, target } = languages(args.source, args.target);
      return message(summarizeThenTranslate(args.text, source, target, summaryLength(args.length)));
    },
  );

  register(
    'localize_place',
    {
      title: 'Localize the address of a place',
      description:
        `Find the Korean address at a coordinate with ${reverseGeocode.name} and give it in another language with ` +
        `${translateText.name} (names and numbers that must stay as written are protected).`,
      args: {
        coords: required('"x,y" of the place; for EPSG:4326 longitude,latitude, e.g. 127.1054,37.3595'),
        target: required('Language to give the address in, e.g. en, ja, zh-CN', completeTargetOf('ko')),
        sourcecrs: optional(
          'Coordinate system of coords: EPSG:4326 (default), EPSG:3857 or SVC:2048 (UTM-K)',
          oneOf(CRS_CODES),
        ),
      },
      icons: serviceIcons('maps'),
      tools: [reverseGeocode.name, translateText.name],
    },
    (args) => message(localizePlace(args.coords, args.sourcecrs, args.target)),
  );

  const completers = new Map<string, Completers>();
  if (prompts.size === 0) return completers;
  for (const [name, prompt] of prompts) {
    completers.set(
      name,
      Object.fromEntries(
        Object.entries(prompt.args).flatMap(([arg, spec]) => (spec.complete ? [[arg, spec.complete]] : [])),
      ),
    );
  }
  server.registerCapabilities({ prompts: { listChanged: false } });
  const listing = { prompts: [...prompts.values()].map((p) => p.listed) };
  server.setRequestHandler('prompts/list', () => listing);
  server.setRequestHandler('prompts/get', (request) => {
    const { name, arguments: given = {} } = request.params;
    const prompt = prompts.get(name);
    if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${name} not found`);
    return prompt.render(argumentValues(name, prompt.args, given));
  });
  return completers;
}

/** The arguments a prompt knows, each checked; others are ignored. */
function argumentValues(
  prompt: string,
  args: Record<string, PromptArgument>,
  given: Record<string, string>,
): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const [name, spec] of Object.entries(args)) {
    const value = Object.hasOwn(given, name) ? given[name] : undefined;
    if (value === undefined && spec.required) invalid(`Invalid arguments for prompt ${prompt}: ${name} is required`);
    if (value !== undefined && spec.maxLength !== undefined && value.length > spec.maxLength) {
      // Code units first: fewer than the limit means fewer code points too. Then the pairs, found natively: a
      // refusal of 450 KB must cost about what reading it once does.
      const length = value.length - (value.match(SURROGATE_PAIR)?.length ?? 0);
      if (length > spec.maxLength) {
        invalid(
          `Invalid arguments for prompt ${prompt}: ${name} must be at most ${spec.maxLength} characters (got ${length})`,
        );
      }
    }
    if (value !== undefined && spec.notBlank && value.trim() === '')
      invalid(`Invalid arguments for prompt ${prompt}: ${name} must not be empty or only white space`);
    values[name] = value;
  }
  return values;
}

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

function invalid(text: string): never {
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, text);
}

function languages(rawSource: string | undefined, rawTarget: string): { source: SourceCode; target: LanguageCode } {
  const source = rawSource?.trim() || 'auto';
  const target = rawTarget.trim();
  if (source !== 'auto' && !isLanguage(source))
    invalid(`source: unknown language "${source}"; use auto or one of ${LANGUAGE_CODES.join(', ')}`);
  if (!isLanguage(target)) invalid(`target: unknown language "${target}"; use one of ${LANGUAGE_CODES.join(', ')}`);
  const [issue] = translationIssues({ source, target });
  if (issue) invalid(`${issue.field}: ${issue.message}`);
  return { source, target };
}

function summaryLength(raw: string | undefined): SummaryLength {
  const length = raw?.trim() || 'medium';
  if (!(SUMMARY_LENGTHS as readonly string[]).includes(length))
    invalid(`length: use one of ${SUMMARY_LENGTHS.join(', ')}`);
  return length as SummaryLength;
}

function summarizing(raw: string | undefined): boolean {
  const value = raw?.trim().toLowerCase() || 'true';
  if (value !== 'true' && value !== 'false') invalid('summarize: use true or false');
  return value === 'true';
}

const message = (text: string): GetPromptResult => ({ messages: [{ role: 'user', content: { type: 'text', text } }] });

const describe = (code: string) =>
  isLanguage(code) ? `${LANGUAGE_NAMES[code]} (${code})` : 'the detected language (auto)';
const call = (args: Record<string, unknown>) => JSON.stringify(args);

/** What rule 5 means for this direction, in the words of translation-rules.ts's answer. */
function spanRule(source: SourceCode, target: LanguageCode): string {
  const tags = '<span translate="no">…</span> or <span class="notranslate">…</span>';
  if (!spansHonoured(source, target)) {
    return `Text inside ${tags} counts like any other text for ${source} -> ${target} and may be translated: span tags are not supported there.`;
  }
  const when = source === 'auto' ? ' (when the detected source language supports span tags for this target)' : '';
  return `Text inside ${tags} is not translated and does not count toward the limit${when}: keep such spans exactly as written and never split one between calls.`;
}

/**
 * The text as pieces that pass the translation tool's length check for the direction, each fenced to be passed
 * verbatim.
 */
function pieces(
  text: string,
  source: SourceCode,
  target: LanguageCode,
): { count: number; length: number; block: string; chunks: string[] } {
  const chunks = chunkText(text.trim(), { source, target }).map((c) => c.trim());
  const block =
    chunks.length === 1
      ? `--- text ---\n${chunks[0]}\n--- end of text ---`
      : chunks.map((c, i) => `--- piece ${i + 1} of ${chunks.length} ---\n${c}`).join('\n\n') + '\n--- end of text ---';
  return { count: chunks.length, length: countedLength(text.trim(), source, target), block, chunks };
}

function completionStep(promptTemplate: string, placeholder: string, length: SummaryLength, cue: string): string {
  const params = { ...summaryParameters(length), text: `<the prompt below, with ${placeholder} replaced>` };
  return (
    `${createCompletion.name}, arguments ${call(params)}. The prompt, exactly:\n` +
    `"""\n${promptTemplate}"""\n` +
    `result.text holds the prompt followed by the generated text: keep only what follows "${cue}". If stopReason is ` +
    `"length" the summary was cut off: call again with a larger maxTokens (at most 2048).`
  );
}

/**
 * How much longer than its source a translation may be (Korean to English grows 2-3 times): the pieces whose
 * translations are summarized together are chosen by it, so that each part's prompt fits one completion.
 */
const GROWTH = 3;

/** Consecutive pieces (1-based ranges) whose translations together stay within one summary prompt. */
function summaryParts(chunks: readonly string[], room: number): [number, number][] {
  const parts: [number, number][] = [];
  let size = 0;
  for (const [i, chunk] of chunks.entries()) {
    const grown = codePoints(chunk) * GROWTH;
    if (parts.length === 0 || size + grown > room) {
      parts.push([i + 1, i + 1]);
      size = 0;
    } else parts.at(-1)![1] = i + 1;
    size += grown;
  }
  return parts;
}

function translateThenSummarize(
  text: string,
  source: SourceCode,
  target: LanguageCode,
  length: SummaryLength | false,
  workflowNote: boolean,
): string {
  const { count, length: chars, block, chunks } = pieces(text, source, target);
  const language = LANGUAGE_NAMES[target];
  const split =
    count === 1
      ? `The text counts ${chars} characters: one call, with the whole text.`
      : `The text counts ${chars} characters, over the ${TEXT_LIMIT}-character limit of one call, so it is given below ` +
        `in ${count} pieces split at sentence boundaries, each within the limit: call the tool once per piece, in ` +
        'order, and join the translatedText values in the same order, keeping paragraph breaks.';
  const detected =
    source === 'auto'
      ? count === 1
        ? '   message.result.srcLangType of the answer is the detected source language.'
        : "   message.result.srcLangType of each answer is that piece's detected source language; they may differ."
      : '';
  const failure =
    'If a call fails, report its error message instead of guessing a translation or a summary, together with the ' +
    'translations already made (they were billed) and which pieces are left.';
  if (length === false) {
    return [
      `Translate the text below from ${describe(source)} into ${language} (${target}).`,
      '',
      `1. Translate with ${translateText.name}, arguments ${call({ source, target, text: '<the text or one piece>' })}.`,
      `   ${split}`,
      `   ${spanRule(source, target)}`,
      detected,
      `2. Answer with the translation${source === 'auto' ? ', and the detected source language of each piece' : ''}.`,
      failure,
      workflowNote ? `(The tool ${WORKFLOW_TOOL_NAME} with summarize false does the same in one call.)` : '',
      '',
      block,
    ]
      .filter((line, i, all) => line !== '' || all[i - 1] !== '')
      .join('\n');
  }
  // As the workflow tool does: a translation longer than one prompt holds is summarized in parts, then the parts.
  const template = summaryPrompt('{TRANSLATION}', language, length);
  const room = SERVER_LIMITS.promptChars - summaryPrompt('', language, length).length;
  const parts = summaryParts(chunks, room);
  const inParts =
    parts.length === 1
      ? `   If the translation is longer than ${room} characters (a prompt must stay within ${SERVER_LIMITS.promptChars}), ` +
        'summarize it in parts, then the parts, as below.'
      : `   The translation may be longer than one prompt holds (at most ${SERVER_LIMITS.promptChars} characters): ` +
        `summarize it in ${parts.length} parts, then the parts. Part by part, {TRANSLATION} is the joined translation ` +
        `of ${parts.map(([a, b]) => (a === b ? `piece ${a}` : `pieces ${a}-${b}`)).join(', ')}; then {TRANSLATION} ` +
        'is the part summaries joined in order, for the summary itself. Keep every part under the limit (split one ' +
        'further at a sentence if it is not).';
  return [
    `Translate the text below from ${describe(source)} into ${language} (${target}), then summarize the translation in ${language}.`,
    '',
    `1. Translate with ${translateText.name}, arguments ${call({ source, target, text: '<the text or one piece>' })}.`,
    `   ${split}`,
    `   ${spanRule(source, target)}`,
    detected,
    `2. Summarize the translation with ${completionStep(template, '{TRANSLATION}', length, summaryCue(language))}`,
    inParts,
    `3. Answer with the translation, then the summary${parts.length > 1 ? ' (say that it was made from part summaries)' : ''}` +
      `${source === 'auto' ? ", and the detected source language (each piece's, if they differ)" : ''}.`,
    failure,
    workflowNote ? `(The tool ${WORKFLOW_TOOL_NAME} runs these same steps in one call, for pipelines.)` : '',
    '',
    block,
  ]
    .filter((line, i, all) => line !== '' || all[i - 1] !== '')
    .join('\n');
}

function summarizeThenTranslate(text: string, source: SourceCode, target: LanguageCode, length: SummaryLength): string {
  const { count, length: chars, block } = pieces(text, source, target);
  const language = isLanguage(source) ? LANGUAGE_NAMES[source] : 'the language of the text';
  const long =
    count === 1
      ? ''
      : `   The text is long (${chars} characters) and is given below in ${count} pieces: summarize each piece this way, ` +
        'then summarize the joined piece summaries once more the same way.';
  return [
    `Summarize the text below in ${language}, then translate the summary into ${LANGUAGE_NAMES[target]} (${target}). ` +
      'Only the summary is translated, which is cheaper than translating the whole text.',
    '',
    `1. Summarize with ${completionStep(summaryPrompt('{TEXT}', language, length), '{TEXT}', length, summaryCue(language))}`,
    long,
    `2. Translate the summary with ${translateText.name}, arguments ${call({ source, target, text: '<the summary>' })}.`,
    `   ${spanRule(source, target)}`,
    `3. Answer with the translated summary${source === 'auto' ? ' and the detected source language (message.result.srcLangType)' : ''}.`,
    'If a call fails, report its error message instead of guessing.',
    '',
    block,
  ]
    .filter((line, i, all) => line !== '' || all[i - 1] !== '')
    .join('\n');
}

function localizePlace(rawCoords: string, rawCrs: string | undefined, rawTarget: string): string {
  const coords = rawCoords.trim();
  // Any case, as the tool takes it (the spec's sample addresses write epsg:4326).
  const crs = (rawCrs?.trim() || 'EPSG:4326').toUpperCase();
  const target = rawTarget.trim();
  const coordsCheck = reverseGeocode.input.shape.coords.safeParse(coords);
  if (!coordsCheck.success) invalid(`coords: ${coordsCheck.error.issues[0]?.message ?? 'invalid'}`);
  if (!(CRS_CODES as readonly string[]).includes(crs)) invalid(`sourcecrs: use one of ${CRS_CODES.join(', ')}`);
  if (!isLanguage(target)) invalid(`target: unknown language "${target}"; use one of ${LANGUAGE_CODES.join(', ')}`);

  const geocode = { coords, sourcecrs: crs, orders: 'roadaddr,addr,admcode', output: 'json' };
  const translate =
    target === 'ko'
      ? '3. The address is already in Korean: no translation is needed.'
      : [
          `3. Translate the address with ${translateText.name}, arguments ${call({ source: 'ko', target, text: '<the Korean address>' })}.`,
          spansHonoured('ko', target)
            ? '   Wrap the building number, the lot number and the postal code in <span translate="no">…</span> so they stay as written.'
            : `   (Span tags are not honoured for ko -> ${target}; check that numbers came through unchanged.)`,
        ].join('\n');
  return [
    `Find the address of the place at ${coords} (${crs}) and give it in ${LANGUAGE_NAMES[target]} (${target}).`,
    '',
    `1. Call ${reverseGeocode.name} with arguments ${call(geocode)}.`,
    '   status.code 3 ("no results") to these orders means not even a dong resolves there (for example over the sea): ' +
      'say so and stop. Near coasts and in new neighbourhoods there may be a dong but no roadaddr or addr result: ' +
      'if you call again, keep admcode (or legalcode) in orders, or such a place gets status 3 too.',
    '   Coordinate systems and the order of x and y: resource svc://maps/coordinate-systems.',
    '2. Build the Korean address from the results: region.area1.name to region.area4.name (skip empty names); then, from ' +
      'the roadaddr result, land.name and land.number1 (building name in land.addition0.value, postal code in ' +
      'land.addition1.value); from the addr result, land.number1 and land.number2 joined by "-" (land.type 2 means a ' +
      'mountain lot: prefix 산). When there is no roadaddr or addr result (new or coastal areas), use the admcode areas.',
    translate,
    `4. Answer with the Korean address, its ${LANGUAGE_NAMES[target]} version, the building name and the postal code when known.`,
  ].join('\n');
}
