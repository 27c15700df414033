import type { RecordedRequest, Reply } from './recording-server.js';

/**
 * The least a success of each operation carries (written out from the spec's response descriptions), chosen by the
 * request's method and path: for tests whose upstream must answer any valid call with a success.
 */
const ANSWERS: [method: string, path: RegExp, body: unknown][] = [
  [
    'POST',
    /^\/api\/[\w-]+\/configGroup\/getKafkaVersionConfigGroupList$/,
    { code: 0, message: 'SUCCESS', result: { kafkaConfigGroupList: [] } },
  ],
  [
    'GET',
    /^\/api\/[\w-]+\/cluster\/getClusterServerImageList$/,
    { code: 0, message: 'SUCCESS', result: { serverImageList: [] } },
  ],
  [
    'POST',
    /^\/nmt\/v1\/translation$/,
    { message: { result: { srcLangType: 'ko', tarLangType: 'en', translatedText: 'ok' } } },
  ],
  ['PUT', /^\/api\/v1\/jobs\/[^/]+\/executions$/, { jobId: 'job-1' }],
  ['GET', /^\/map-reversegeocode\/v2\/gc$/, { status: { code: 0, name: 'ok', message: 'done' }, results: [] }],
  ['POST', /\/responses$/, { methodResponseDto: { statusCode: 200 } }],
  ['GET', /^\/api\/v1\/products$/, { initialCount: 0, productPage: { total: 0, content: [] } }],
  ['PUT', /\/run-scanner$/, { scannerId: 2, name: 'scanner', status: 'SCANNER_STARTING' }],
  ['POST', /^\/api\/v2\/apps\/checkAvailableName$/, { success: true, availableName: true, message: '' }],
  ['GET', /^\/api\/v1\/schemas\/default$/, { datasetType: 'user', name: 'user', fields: [] }],
  ['DELETE', /^\/api\/v1\/services\/[^/]+$/, { result: 'deleted' }],
  ['POST', /^\/testapp\/v1\/completions\/[^/]+$/, { status: { code: '20000', message: 'OK' }, result: { text: 'ok' } }],
  ['PUT', /^\/CloudSearch\/real\/v1\/domain\/[^/]+\/schema$/, { result: 'updated' }],
  ['GET', /^\/CloudSearch\/real\/v1\/tokenizer$/, []],
  ['POST', /^\/kms\/v1\/keys\/[^/]+\/migrate$/, { code: 'SUCCESS', data: { keyTag: 'k1', targetRegion: 'KR' } }],
];

/** A success for whichever operation asked; 404 with a gateway error for a request no operation makes. */
export function validAnswer(req: RecordedRequest): Reply {
  const path = req.url.split('?')[0]!;
  const found = ANSWERS.find(([method, pattern]) => method === req.method && pattern.test(path));
  if (!found)
    return {
      status: 404,
      body: { error: { errorCode: '300', message: 'Not Found', details: `${req.method} ${path}` } },
    };
  if (path.endsWith('/gc') && /[?&]callback=/.test(req.url)) {
    const callback = /[?&]callback=([^&]*)/.exec(req.url)![1]!;
    return {
      headers: { 'content-type': 'application/javascript' },
      body: `${decodeURIComponent(callback)}(${JSON.stringify(found[2])})`,
    };
  }
  return { body: found[2] };
}
