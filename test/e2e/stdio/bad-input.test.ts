/**
 * Every constraint of the spec gets a bad-input call through the real server (dist/cli.js over stdio): the answer
 * is a tool error (isError, no structuredContent) whose text names the field and the rule, and the recording
 * upstream receives nothing. Positive controls next to them show that the same calls, fixed, do go out.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { spawnServer, textOf, type SpawnedServer } from '../../helpers/spawn-server.js';
import { CREDENTIALS, fullEnv } from '../../helpers/upstream.js';
import { VALID } from '../../helpers/valid-args.js';
import { validAnswer } from '../../helpers/valid-answers.js';

let upstream: RecordingServer;
let server: SpawnedServer;

beforeAll(async () => {
  upstream = await startRecordingServer();
  server = await spawnServer(fullEnv(upstream.url));
}, 30_000);

afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

beforeEach(() => {
  upstream.reset();
  upstream.setFallback(validAnswer);
});

/** Minimal valid arguments of each tool; each bad case changes one thing. */

const without = (args: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(args).filter(([k]) => k !== key));
const withArgs = (tool: string, change: Record<string, unknown>) => ({ ...VALID[tool]!, ...change });
const jobCondition = (change: Record<string, unknown>, drop?: string) => {
  const base = VALID.dataflow_update_job_execution_options!.jobCondition as Record<string, unknown>;
  return {
    ...withArgs('dataflow_update_job_execution_options', {}),
    jobCondition: drop ? without(base, drop) : { ...base, ...change },
  };
};

const REQUIRED = /is required/;
const ENUM = /expected one of|invalid option|expected "/i;
const s = (n: number, c = 'a') => c.repeat(n);

/** [tool, arguments, field named in the error, rule the error states]. */
type Case = [tool: string, args: Record<string, unknown>, field: string, rule: RegExp];

const REQUIRED_CASES: Case[] = [
  ['streaming_list_config_groups', {}, 'kafkaVersionCode', REQUIRED],
  ['translation_translate_text', without(VALID.translation_translate_text!, 'source'), 'source', REQUIRED],
  ['translation_translate_text', without(VALID.translation_translate_text!, 'target'), 'target', REQUIRED],
  ['translation_translate_text', without(VALID.translation_translate_text!, 'text'), 'text', REQUIRED],
  [
    'dataflow_update_job_execution_options',
    without(VALID.dataflow_update_job_execution_options!, 'jobId'),
    'jobId',
    REQUIRED,
  ],
  [
    'dataflow_update_job_execution_options',
    without(VALID.dataflow_update_job_execution_options!, 'jobCondition'),
    'jobCondition',
    REQUIRED,
  ],
  ['dataflow_update_job_execution_options', jobCondition({}, 'nrn'), 'jobCondition.nrn', REQUIRED],
  ['dataflow_update_job_execution_options', jobCondition({}, 'scriptPath'), 'jobCondition.scriptPath', REQUIRED],
  ['dataflow_update_job_execution_options', jobCondition({}, 'logPath'), 'jobCondition.logPath', REQUIRED],
  ['maps_reverse_geocode', {}, 'coords', REQUIRED],
  [
    'apigateway_create_method_response',
    without(VALID.apigateway_create_method_response!, 'productId'),
    'productId',
    REQUIRED,
  ],
  ['apigateway_create_method_response', without(VALID.apigateway_create_method_response!, 'apiId'), 'apiId', REQUIRED],
  [
    'apigateway_create_method_response',
    without(VALID.apigateway_create_method_response!, 'resourceId'),
    'resourceId',
    REQUIRED,
  ],
  [
    'apigateway_create_method_response',
    without(VALID.apigateway_create_method_response!, 'methodName'),
    'methodName',
    REQUIRED,
  ],
  [
    'apigateway_create_method_response',
    without(VALID.apigateway_create_method_response!, 'statusCode'),
    'statusCode',
    REQUIRED,
  ],
  ['datacatalog_run_scanner', { scannerId: 2 }, 'catalogId', REQUIRED],
  ['datacatalog_run_scanner', { catalogId: 1 }, 'scannerId', REQUIRED],
  ['bigdata_check_app_name', { name: 'my-app' }, 'accountId', REQUIRED],
  ['bigdata_check_app_name', { accountId: 'abc' }, 'name', REQUIRED],
  ['recommendation_get_default_schema', {}, 'datasetType', REQUIRED],
  ['recommendation_delete_service', {}, 'serviceId', REQUIRED],
  ['textgen_create_completion', {}, 'text', REQUIRED],
  ['search_update_schema', { document: VALID.search_update_schema!.document }, 'name', REQUIRED],
  ['search_update_schema', { name: 'shop' }, 'document', REQUIRED],
  ['search_update_schema', { name: 'shop', document: 'schema' }, 'document', /expected object/],
  ['kms_migrate_key', { targetRegion: 'KR' }, 'keyTag', REQUIRED],
  ['kms_migrate_key', { keyTag: 'k1' }, 'targetRegion', REQUIRED],
];

const ENUM_CASES: Case[] = [
  ['translation_translate_text', withArgs('translation_translate_text', { source: 'kr' }), 'source', ENUM],
  ['translation_translate_text', withArgs('translation_translate_text', { target: 'auto' }), 'target', ENUM],
  ['translation_translate_text', withArgs('translation_translate_text', { target: 'pt' }), 'target', ENUM],
  [
    'maps_reverse_geocode',
    withArgs('maps_reverse_geocode', { sourcecrs: 'EPSG:5179' }),
    'sourcecrs',
    /must be EPSG:4326, EPSG:3857, SVC:2048 \(any case\)/,
  ],
  [
    'maps_reverse_geocode',
    withArgs('maps_reverse_geocode', { targetcrs: 'epsg:5179' }),
    'targetcrs',
    /must be EPSG:4326, EPSG:3857, SVC:2048 \(any case\)/,
  ],
  ['maps_reverse_geocode', withArgs('maps_reverse_geocode', { output: 'html' }), 'output', ENUM],
  [
    'maps_reverse_geocode',
    withArgs('maps_reverse_geocode', { orders: 'legalcode,roadname' }),
    'orders',
    /legalcode, admcode, addr, roadaddr/,
  ],
  [
    'maps_reverse_geocode',
    withArgs('maps_reverse_geocode', { orders: '' }),
    'orders',
    /legalcode, admcode, addr, roadaddr/,
  ],
  [
    'apigateway_create_method_response',
    withArgs('apigateway_create_method_response', { methodName: 'TRACE' }),
    'methodName',
    ENUM,
  ],
  [
    'apigateway_create_method_response',
    withArgs('apigateway_create_method_response', { methodName: 'get' }),
    'methodName',
    ENUM,
  ],
  ['apigateway_list_products', { subscriptionCode: 'PRIVATE' }, 'subscriptionCode', ENUM],
  ['recommendation_get_default_schema', { datasetType: 'users' }, 'datasetType', ENUM],
  ['kms_migrate_key', withArgs('kms_migrate_key', { targetRegion: 'SGN' }), 'targetRegion', ENUM],
  ['streaming_list_config_groups', withArgs('streaming_list_config_groups', { region: 'US' }), 'region', ENUM],
  ['streaming_list_server_images', { region: 'kr-1' }, 'region', ENUM],
  ['streaming_list_server_images', { generationCode: 'G2' }, 'generationCode', ENUM],
  ['textgen_create_completion', withArgs('textgen_create_completion', { model: '..' }), 'model', /must not be "\."/],
];

const RANGE_CASES: Case[] = [
  [
    'textgen_create_completion',
    withArgs('textgen_create_completion', { temperature: 0 }),
    'temperature',
    /minimum 0, exclusive|>\s?0/,
  ],
  [
    'textgen_create_completion',
    withArgs('textgen_create_completion', { temperature: 1.01 }),
    'temperature',
    /maximum 1\b|<=\s?1/,
  ],
  [
    'textgen_create_completion',
    withArgs('textgen_create_completion', { topP: 0 }),
    'topP',
    /minimum 0, exclusive|>\s?0/,
  ],
  ['textgen_create_completion', withArgs('textgen_create_completion', { topP: 1.5 }), 'topP', /maximum 1\b|<=\s?1/],
  [
    'textgen_create_completion',
    withArgs('textgen_create_completion', { repeatPenalty: 0 }),
    'repeatPenalty',
    /minimum 0, exclusive|>\s?0/,
  ],
  [
    'textgen_create_completion',
    withArgs('textgen_create_completion', { repeatPenalty: 10.5 }),
    'repeatPenalty',
    /maximum 10\b|<=\s?10/,
  ],
  [
    'textgen_create_completion',
    withArgs('textgen_create_completion', { maxTokens: 0 }),
    'maxTokens',
    /minimum 1\b|>=\s?1/,
  ],
  [
    'textgen_create_completion',
    withArgs('textgen_create_completion', { maxTokens: 2049 }),
    'maxTokens',
    /maximum 2048|<=\s?2048/,
  ],
  ['textgen_create_completion', withArgs('textgen_create_completion', { maxTokens: 10.5 }), 'maxTokens', /int/i],
  ['textgen_create_completion', withArgs('textgen_create_completion', { topK: -1 }), 'topK', /minimum 0\b|>=\s?0/],
  ['textgen_create_completion', withArgs('textgen_create_completion', { topK: 129 }), 'topK', /maximum 128|<=\s?128/],
  [
    'dataflow_update_job_execution_options',
    jobCondition({ numWorker: 1 }),
    'jobCondition.numWorker',
    /minimum 2|>=\s?2/,
  ],
  [
    'dataflow_update_job_execution_options',
    jobCondition({ numWorker: 11 }),
    'jobCondition.numWorker',
    /maximum 10|<=\s?10/,
  ],
  ['dataflow_update_job_execution_options', jobCondition({ timeout: 0 }), 'jobCondition.timeout', /minimum 1\b|>=\s?1/],
  [
    'dataflow_update_job_execution_options',
    jobCondition({ timeout: 1441 }),
    'jobCondition.timeout',
    /maximum 1440|<=\s?1440/,
  ],
  [
    'apigateway_create_method_response',
    withArgs('apigateway_create_method_response', { statusCode: 99 }),
    'statusCode',
    /minimum 100|>=\s?100/,
  ],
  [
    'apigateway_create_method_response',
    withArgs('apigateway_create_method_response', { statusCode: 600 }),
    'statusCode',
    /maximum 599|<=\s?599/,
  ],
  [
    'streaming_list_config_groups',
    withArgs('streaming_list_config_groups', { pageNo: 0 }),
    'pageNo',
    /minimum 1\b|>=\s?1/,
  ],
  [
    'streaming_list_config_groups',
    withArgs('streaming_list_config_groups', { pageSize: 0 }),
    'pageSize',
    /minimum 1\b|>=\s?1/,
  ],
  ['apigateway_list_products', { offset: -1 }, 'offset', /minimum 0\b|>=\s?0/],
  ['apigateway_list_products', { limit: 0 }, 'limit', /minimum 1\b|>=\s?1/],
  ['apigateway_list_products', { limit: '0' }, 'limit', />=\s?1/],
  ['apigateway_list_products', { offset: '9223372036854775808' }, 'offset', /9223372036854775807/],
  ['apigateway_list_products', { offset: '-5' }, 'offset', /decimal integer/],
  // 2^53 is not a safe JavaScript number: it would be rounded, so it is refused (a decimal string is the way).
  ['apigateway_list_products', { offset: Number.MAX_SAFE_INTEGER + 2 }, 'offset', /9007199254740991/],
  ['datacatalog_run_scanner', { catalogId: 1.5, scannerId: 2 }, 'catalogId', /int/i],
  ['datacatalog_run_scanner', { catalogId: '1', scannerId: 2 }, 'catalogId', /expected (int|number)/i],
];

const LENGTH_AND_PATTERN_CASES: Case[] = [
  [
    'apigateway_create_method_response',
    withArgs('apigateway_create_method_response', { responseDescription: s(2001) }),
    'responseDescription',
    /maximum 2000|<=\s?2000/,
  ],
  ['apigateway_list_products', { productName: s(101) }, 'productName', /maximum 100\b|<=\s?100/],
  [
    'bigdata_check_app_name',
    withArgs('bigdata_check_app_name', { accountId: s(23, 'A') }),
    'accountId',
    /maximum 22|<=\s?22/,
  ],
  [
    'bigdata_check_app_name',
    withArgs('bigdata_check_app_name', { accountId: '7N42dgm5-FLK9N8MT7fHC7' }),
    'accountId',
    /Base62/i,
  ],
  ['bigdata_check_app_name', withArgs('bigdata_check_app_name', { name: 'ab' }), 'name', /minimum 3|>=\s?3/],
  ['bigdata_check_app_name', withArgs('bigdata_check_app_name', { name: s(16) }), 'name', /maximum 15|<=\s?15/],
  ['bigdata_check_app_name', withArgs('bigdata_check_app_name', { name: 'My-app' }), 'name', /lower-case/],
  ['bigdata_check_app_name', withArgs('bigdata_check_app_name', { name: '-myapp' }), 'name', /start/],
  ['bigdata_check_app_name', withArgs('bigdata_check_app_name', { name: 'myapp-' }), 'name', /end/],
  ['bigdata_check_app_name', withArgs('bigdata_check_app_name', { name: 'my--app' }), 'name', /single '-'/],
  [
    'bigdata_check_app_name',
    withArgs('bigdata_check_app_name', { name: 'my_app' }),
    'name',
    /lower-case letters, digits/,
  ],
  ['maps_reverse_geocode', { coords: '127.1054' }, 'coords', /x,y/],
  ['maps_reverse_geocode', { coords: '127.1054 37.3595' }, 'coords', /x,y/],
];

const CROSS_FIELD_CASES: Case[] = [
  ['translation_translate_text', withArgs('translation_translate_text', { text: s(5001) }), 'text', /5000/],
  [
    'translation_translate_text',
    withArgs('translation_translate_text', { text: `${s(5001)}<span translate="no">${s(200, 'b')}</span>` }),
    'text',
    /5000/,
  ],
  // Rule 5: spans are only exempt on the pairs that support them (ko -> es does not), so they count there.
  [
    'translation_translate_text',
    { source: 'ko', target: 'es', text: `${s(4900)}<span translate="no">${s(200, 'b')}</span>` },
    'text',
    /at most 5000 characters \(got 5128\)/,
  ],
  [
    'translation_translate_text',
    { source: 'ja', target: 'es', text: 'こんにちは' },
    'target',
    /not a supported direction/,
  ],
  [
    'translation_translate_text',
    { source: 'zh-CN', target: 'de', text: '你好' },
    'target',
    /not a supported direction/,
  ],
  [
    'translation_translate_text',
    { source: 'en', target: 'es', text: 'hi', glossaryKey: 'g1' },
    'glossaryKey',
    /not supported for en -> es/,
  ],
  [
    'translation_translate_text',
    { source: 'en', target: 'es', text: 'hi', replaceInfo: 'r1' },
    'replaceInfo',
    /not supported for en -> es/,
  ],
  [
    'translation_translate_text',
    { source: 'ko', target: 'en', text: '안녕', honorific: true },
    'honorific',
    /not supported for ko -> en/,
  ],
  ['translation_translate_text', { source: 'ko', target: 'ko', text: '안녕' }, 'target', /not a supported direction/],
  [
    'maps_reverse_geocode',
    withArgs('maps_reverse_geocode', { output: 'xml', callback: 'cb' }),
    'callback',
    /only .*json/,
  ],
];

/** Path parameters: '', '.' and '..' must never reach the wire. */
const PATH_PARAMETERS: [tool: string, field: string][] = [
  ['dataflow_update_job_execution_options', 'jobId'],
  ['apigateway_create_method_response', 'productId'],
  ['apigateway_create_method_response', 'apiId'],
  ['apigateway_create_method_response', 'resourceId'],
  ['recommendation_delete_service', 'serviceId'],
  ['search_update_schema', 'name'],
  ['kms_migrate_key', 'keyTag'],
];
const PATH_CASES: Case[] = PATH_PARAMETERS.flatMap(([tool, field]) =>
  ['', '.', '..'].map((value): Case => [
    tool,
    withArgs(tool, { [field]: value }),
    field,
    value === '' ? />=1 characters \(minimum 1\)/ : /must not be "\." or "\.\."/,
  ]),
);

const UNKNOWN_CASES: Case[] = [
  ['search_list_tokenizer_languages', { language: 'korean' }, 'language', /unknown|unrecognized/i],
  [
    'streaming_list_config_groups',
    withArgs('streaming_list_config_groups', { page: 2 }),
    'page',
    /unknown|unrecognized/i,
  ],
  ['dataflow_update_job_execution_options', jobCondition({ workers: 3 }), 'workers', /unknown|unrecognized/i],
  [
    'translation_translate_text',
    withArgs('translation_translate_text', { Source: 'ko' }),
    'Source',
    /unknown|unrecognized/i,
  ],
];

const TYPE_CASES: Case[] = [
  ['apigateway_list_products', { isPublished: 'yes' }, 'isPublished', /expected boolean/],
  [
    'textgen_create_completion',
    withArgs('textgen_create_completion', { stopBefore: 'END' }),
    'stopBefore',
    /expected array/,
  ],
  [
    'textgen_create_completion',
    withArgs('textgen_create_completion', { temperature: '0.5' }),
    'temperature',
    /expected number/,
  ],
  ['streaming_list_config_groups', { kafkaVersionCode: '3050100' }, 'kafkaVersionCode', /expected (int|number)/],
];

async function expectRefused([tool, args, field, rule]: Case): Promise<void> {
  const result = await server.call(tool, args);
  const text = textOf(result);
  expect(result.isError, text).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  expect(text).toContain(field);
  // The line naming the field also states the rule.
  const line = text.split('\n').find((l) => l.includes(`${field}:`) || l.includes(`"${field}"`));
  expect(line, text).toBeDefined();
  expect(line).toMatch(rule);
  expect(upstream.requests).toEqual([]);
}

const name = (c: Case) => `${c[0]} ${JSON.stringify(c[1]).slice(0, 90)} -> ${c[2]}`;

describe('bad input is refused before anything is sent', () => {
  it.each(REQUIRED_CASES.map((c) => [name(c), c] as const))('required: %s', (_, c) => expectRefused(c));
  it.each(ENUM_CASES.map((c) => [name(c), c] as const))('enum: %s', (_, c) => expectRefused(c));
  it.each(RANGE_CASES.map((c) => [name(c), c] as const))('range: %s', (_, c) => expectRefused(c));
  it.each(LENGTH_AND_PATTERN_CASES.map((c) => [name(c), c] as const))('length/pattern: %s', (_, c) => expectRefused(c));
  it.each(CROSS_FIELD_CASES.map((c) => [name(c), c] as const))('cross-field: %s', (_, c) => expectRefused(c));
  it.each(PATH_CASES.map((c) => [name(c), c] as const))('path parameter: %s', (_, c) => expectRefused(c));
  it.each(UNKNOWN_CASES.map((c) => [name(c), c] as const))('unknown argument: %s', (_, c) => expectRefused(c));
  it.each(TYPE_CASES.map((c) => [name(c), c] as const))('type: %s', (_, c) => expectRefused(c));

  // Issue 26: a 64-bit number beyond 2^53-1 gets one line that says how to send it, not two duplicated ones.
  it.each([Number.MAX_SAFE_INTEGER + 2, 1e19])(
    'offset %d as a number: one line naming the decimal string',
    async (offset) => {
      const result = await server.call('apigateway_list_products', { offset });
      const text = textOf(result);
      expect(result.isError, text).toBe(true);
      const lines = text.split('\n').filter((l) => l.includes('offset'));
      expect(lines, text).toHaveLength(1);
      expect(lines[0]).toMatch(/decimal string/);
      expect(lines[0]).toContain('9223372036854775807');
      expect(lines[0]).toContain('9007199254740991');
      expect(upstream.requests).toEqual([]);
    },
  );

  it('offset neither an integer nor a string: says what is accepted', async () => {
    const result = await server.call('apigateway_list_products', { offset: 1.5 });
    const text = textOf(result);
    expect(result.isError, text).toBe(true);
    expect(text).toMatch(/offset: .*integer.*decimal string.*9223372036854775807/);
    expect(upstream.requests).toEqual([]);
  });

  it('names every bad field of one call', async () => {
    const result = await server.call('textgen_create_completion', { text: 'x', temperature: 0, topK: 200 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/temperature:/);
    expect(textOf(result)).toMatch(/topK:/);
    expect(upstream.requests).toEqual([]);
  });
});

/** Positive controls: the boundary values themselves and the calls the rules allow are sent (one request each). */
const ACCEPTED: [tool: string, args: Record<string, unknown>][] = [
  ...Object.entries(VALID),
  [
    'textgen_create_completion',
    withArgs('textgen_create_completion', { temperature: 1, topP: 1, repeatPenalty: 10, maxTokens: 2048, topK: 128 }),
  ],
  [
    'textgen_create_completion',
    withArgs('textgen_create_completion', { temperature: 0.01, topP: 0.01, repeatPenalty: 0.1, maxTokens: 1, topK: 0 }),
  ],
  ['dataflow_update_job_execution_options', jobCondition({ numWorker: 2, timeout: 1 })],
  ['dataflow_update_job_execution_options', jobCondition({ numWorker: 10, timeout: 1440 })],
  [
    'apigateway_create_method_response',
    withArgs('apigateway_create_method_response', { statusCode: 100, responseDescription: '' }),
  ],
  [
    'apigateway_create_method_response',
    withArgs('apigateway_create_method_response', { statusCode: 599, responseDescription: s(2000), methodName: 'ANY' }),
  ],
  ['apigateway_list_products', { offset: 0, limit: 1, productName: s(100) }],
  ['apigateway_list_products', { offset: '9223372036854775807', limit: '9223372036854775807' }],
  ['apigateway_list_products', { offset: 9007199254740991 }],
  ['bigdata_check_app_name', { accountId: s(22, 'Z'), name: 'a-b' }],
  ['bigdata_check_app_name', { accountId: '', name: 'abcdefghij-1234' }],
  ['streaming_list_config_groups', { kafkaVersionCode: 1, pageNo: 1, pageSize: 1, region: 'JPN' }],
  ['translation_translate_text', { source: 'ko', target: 'en', text: s(5000) }],
  [
    'translation_translate_text',
    {
      source: 'ko',
      target: 'en',
      text: `${s(5000)}<span translate="no">${s(100, 'b')}</span><span class="notranslate">${s(100, 'c')}</span>`,
    },
  ],
  [
    'translation_translate_text',
    { source: 'ko', target: 'en', text: `${s(4900)}<span translate="no">${s(200, 'b')}</span>` },
  ],
  ['translation_translate_text', { source: 'ja', target: 'ko', text: 'こんにちは', honorific: true }],
  ['translation_translate_text', { source: 'zh-CN', target: 'ja', text: '你好', honorific: true }],
  ['translation_translate_text', { source: 'fr', target: 'ko', text: 'bonjour', glossaryKey: 'g1', replaceInfo: 'r1' }],
  ['translation_translate_text', { source: 'es', target: 'en', text: 'hola' }],
  [
    'maps_reverse_geocode',
    { coords: '-127,37.5', output: 'json', callback: 'handle_1', orders: 'roadaddr', targetcrs: 'SVC:2048' },
  ],
  ['recommendation_delete_service', { serviceId: '...', confirm: '...' }],
  ['kms_migrate_key', { keyTag: '.a', targetRegion: 'JPN', confirm: '.a' }],
  // What the spec does not rule out is sent (issue 18): the platform decides.
  ['maps_reverse_geocode', { coords: '1.271054e2, +37.3595', sourcecrs: 'epsg:4326' }],
  ['textgen_create_completion', { text: 'hi', model: 'HCX-003', stopBefore: [''] }],
  ['search_update_schema', { name: 'shop', document: {} }],
  ['datacatalog_run_scanner', { catalogId: -1, scannerId: 2 }],
  ['dataflow_update_job_execution_options', { jobId: 'j', jobCondition: { nrn: '', scriptPath: '', logPath: '' } }],
  ['translation_translate_text', { source: 'ko', target: 'en', text: 'a', glossaryKey: '' }],
  ['apigateway_list_products', { hasStageNotAssociatedWithUsagePlanId: '' }],
  // The spec requires text but sets no minimum length (issue 26): an empty prompt or text is the platform's to judge.
  ['translation_translate_text', withArgs('translation_translate_text', { text: '' })],
  ['textgen_create_completion', { text: '' }],
  // The spec says only "callback name for JSONP": its form is the platform's to judge.
  ['maps_reverse_geocode', withArgs('maps_reverse_geocode', { callback: 'my-callback' })],
  ['maps_reverse_geocode', withArgs('maps_reverse_geocode', { callback: 'jQuery3.cb[0]' })],
];

describe('positive controls', () => {
  it.each(ACCEPTED.map(([tool, args]) => [`${tool} ${JSON.stringify(args).slice(0, 90)}`, tool, args] as const))(
    'accepted: %s',
    async (_, tool, args) => {
      const result = await server.call(tool, args);
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect(upstream.requests).toHaveLength(1);
    },
  );
});

describe('a service with no URL or no credentials', () => {
  let partial: SpawnedServer;
  beforeAll(async () => {
    // Only the key-management service has a URL, and only the gateway keys are set.
    partial = await spawnServer({
      SVC_KMS_URL: upstream.url,
      SVC_ACCESS_KEY: CREDENTIALS.SVC_ACCESS_KEY,
      SVC_SECRET_KEY: CREDENTIALS.SVC_SECRET_KEY,
    });
  }, 30_000);
  afterAll(async () => {
    await partial?.close();
  });

  it('no URL: names SVC_<SERVICE>_URL and SVC_GATEWAY_URL, sends nothing', async () => {
    const result = await partial.call('streaming_list_config_groups', { kafkaVersionCode: 1 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toContain('SVC_STREAMING_URL');
    expect(textOf(result)).toContain('SVC_GATEWAY_URL');
    expect(upstream.requests).toEqual([]);
  });

  it('no URL and no studio keys: names all four variables', async () => {
    const result = await partial.call('textgen_create_completion', { text: 'hi' });
    expect(result.isError).toBe(true);
    for (const variable of ['SVC_TEXTGEN_URL', 'SVC_GATEWAY_URL', 'SVC_STUDIO_API_KEY', 'SVC_STUDIO_GATEWAY_KEY']) {
      expect(textOf(result)).toContain(variable);
    }
    expect(upstream.requests).toEqual([]);
  });

  it('no app key pair: names SVC_CLIENT_ID / SVC_CLIENT_SECRET and the per-service pair', async () => {
    const result = await partial.call('maps_reverse_geocode', { coords: '127,37' });
    expect(result.isError).toBe(true);
    for (const variable of ['SVC_CLIENT_ID', 'SVC_CLIENT_SECRET', 'SVC_MAPS_CLIENT_ID', 'SVC_MAPS_CLIENT_SECRET']) {
      expect(textOf(result)).toContain(variable);
    }
    expect(upstream.requests).toEqual([]);
  });

  it('the configured service still works', async () => {
    upstream.reply({ body: { code: 'SUCCESS', data: { keyTag: 'k1', targetRegion: 'KR' } } });
    const result = await partial.call('kms_migrate_key', { keyTag: 'k1', targetRegion: 'KR', confirm: 'k1' });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /kms/v1/keys/k1/migrate']);
  });
});

describe('credentials without a URL', () => {
  let noKeys: SpawnedServer;
  beforeAll(async () => {
    noKeys = await spawnServer({ SVC_GATEWAY_URL: upstream.url });
  }, 30_000);
  afterAll(async () => {
    await noKeys?.close();
  });

  it('gateway signature keys missing: names SVC_ACCESS_KEY and SVC_SECRET_KEY, sends nothing', async () => {
    const result = await noKeys.call('search_list_tokenizer_languages', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('SVC_ACCESS_KEY');
    expect(textOf(result)).toContain('SVC_SECRET_KEY');
    expect(textOf(result)).not.toContain('SVC_SEARCH_URL');
    expect(upstream.requests).toEqual([]);
  });
});
