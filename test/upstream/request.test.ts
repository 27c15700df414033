/** buildRequest, pure: path encoding, region segments, query vs body, proxy prefixes. */
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/catalogue.js';
import type { Operation } from '../../src/catalogue/types.js';
import { CallFailure } from '../../src/failures.js';
import { buildRequest } from '../../src/upstream/request.js';
import { compiled } from '../helpers/attempts.js';

const op = (name: string): Operation => {
  const found = CATALOGUE.find((o) => o.name === name);
  if (!found) throw new Error(`no operation ${name}`);
  return found;
};
/** Validated arguments, as the pipeline passes them (defaults filled in). */
const build = (
  name: string,
  args: Record<string, unknown>,
  baseUrl = 'http://gw.test:8080',
  region: 'KR' | 'SGN' | 'JPN' = 'KR',
) => buildRequest(compiled(op(name), region), op(name).input.parse(args) as Record<string, unknown>, baseUrl);
const sortedQuery = (uri: string) =>
  uri.includes('?')
    ? uri
        .slice(uri.indexOf('?') + 1)
        .split('&')
        .sort()
    : [];

const JOB = { nrn: 'nrn:1', scriptPath: 's', logPath: 'l' };

describe('path parameters', () => {
  it("percent-encodes a job id: 'a/b c' -> 'a%2Fb%20c'", () => {
    const built = build('dataflow_update_job_execution_options', { jobId: 'a/b c', jobCondition: JOB });
    expect(built.method).toBe('PUT');
    expect(built.uri).toBe('/api/v1/jobs/a%2Fb%20c/executions');
    expect(built.url).toBe('http://gw.test:8080/api/v1/jobs/a%2Fb%20c/executions');
  });

  it('encodes ? # % and non-ASCII so they stay inside the segment', () => {
    const built = build('recommendation_delete_service', { serviceId: 'a?b#c%d/한' });
    expect(built.uri).toBe('/api/v1/services/a%3Fb%23c%25d%2F%ED%95%9C');
  });

  it("encodes ' ( ) ! * too, so the URL parser does not change what was signed", () => {
    const built = build('kms_migrate_key', { keyTag: "it's(1)!*", targetRegion: 'KR' });
    expect(built.uri).toBe('/kms/v1/keys/it%27s%281%29%21%2A/migrate');
    expect(new URL(built.url).pathname).toBe(built.uri);
  });

  it('fills every placeholder of E6 and leaves the body to the other fields', () => {
    const built = build('apigateway_create_method_response', {
      productId: 'p 1',
      apiId: 'a/1',
      resourceId: 'r1',
      methodName: 'DELETE',
      statusCode: 204,
    });
    expect(built.uri).toBe('/api/v1/products/p%201/apis/a%2F1/resources/r1/methods/DELETE/responses');
    expect(JSON.parse(built.body!)).toEqual({ statusCode: 204 });
  });

  it.each(['', '.', '..'])('refuses %j even when the schema is bypassed', (value) => {
    const call = () =>
      buildRequest(compiled(op('recommendation_delete_service')), { serviceId: value }, 'http://gw.test');
    expect(call).toThrow(CallFailure);
    expect(call).toThrow(/serviceId: must not be empty, "\." or "\.\."/);
  });

  it('refuses a missing path parameter when the schema is bypassed', () => {
    expect(() => buildRequest(compiled(op('kms_migrate_key')), { targetRegion: 'KR' }, 'http://gw.test')).toThrow(
      /keyTag/,
    );
  });

  it('integers in the path (E8)', () => {
    const built = build('datacatalog_run_scanner', { catalogId: 0, scannerId: 981 });
    expect(built.uri).toBe('/api/v1/catalogs/0/scanners/981/run-scanner');
  });
});

describe('streaming regions', () => {
  it.each([
    ['KR', '/api/v1/configGroup/getKafkaVersionConfigGroupList'],
    ['SGN', '/api/sgn-v1/configGroup/getKafkaVersionConfigGroupList'],
    ['JPN', '/api/jpn-v1/configGroup/getKafkaVersionConfigGroupList'],
  ])('region %s -> %s, region not sent', (region, path) => {
    const built = build('streaming_list_config_groups', { region, kafkaVersionCode: 7 });
    expect(built.uri).toBe(path);
    expect(JSON.parse(built.body!)).toEqual({ kafkaVersionCode: 7, pageNo: 1, pageSize: 10 });
  });

  it('without region the configured default applies', () => {
    expect(build('streaming_list_server_images', {}, 'http://gw.test', 'SGN').uri).toBe(
      '/api/sgn-v1/cluster/getClusterServerImageList',
    );
    expect(build('streaming_list_server_images', {}, 'http://gw.test', 'JPN').uri).toBe(
      '/api/jpn-v1/cluster/getClusterServerImageList',
    );
  });

  it('an explicit region beats the default', () => {
    const built = build(
      'streaming_list_server_images',
      { region: 'KR', generationCode: 'G3' },
      'http://gw.test',
      'JPN',
    );
    expect(built.uri).toBe('/api/v1/cluster/getClusterServerImageList?generationCode=G3');
  });
});

describe('query for GET and DELETE, body for POST and PUT', () => {
  it('GET: every argument in the query, percent-encoded; no body', () => {
    const built = build('apigateway_list_products', {
      offset: '9223372036854775807',
      limit: 50,
      productName: '한글 상품',
      isPublished: false,
      hasDeployedStage: true,
    });
    expect(built.method).toBe('GET');
    expect(built.body).toBeUndefined();
    expect(built.uri.startsWith('/api/v1/products?')).toBe(true);
    expect(sortedQuery(built.uri)).toEqual(
      [
        'offset=9223372036854775807',
        'limit=50',
        'productName=%ED%95%9C%EA%B8%80%20%EC%83%81%ED%92%88',
        'isPublished=false',
        'hasDeployedStage=true',
      ].sort(),
    );
  });

  it('GET: optional arguments left out are not sent; E5 asks for json by default', () => {
    const built = build('maps_reverse_geocode', { coords: '127.1,37.5' });
    expect(built.uri.startsWith('/map-reversegeocode/v2/gc?')).toBe(true);
    expect(sortedQuery(built.uri)).toEqual(['coords=127.1%2C37.5', 'output=json']);
  });

  it('GET without arguments has no ? at all', () => {
    expect(build('search_list_tokenizer_languages', {}).uri).toBe('/CloudSearch/real/v1/tokenizer');
    expect(build('apigateway_list_products', {}).uri).toBe('/api/v1/products');
  });

  it('GET E10: /api/v1/schemas/default?datasetType=interaction', () => {
    const built = build('recommendation_get_default_schema', { datasetType: 'interaction' });
    expect(built.uri).toBe('/api/v1/schemas/default?datasetType=interaction');
    expect(built.body).toBeUndefined();
  });

  it('DELETE: no body', () => {
    const built = build('recommendation_delete_service', { serviceId: 'svc-1' });
    expect(built.method).toBe('DELETE');
    expect(built.uri).toBe('/api/v1/services/svc-1');
    expect(built.body).toBeUndefined();
  });

  it('POST: JSON body with nested objects, nothing in the query', () => {
    const built = build('translation_translate_text', { source: 'en', target: 'ko', text: 'a&b=c?', honorific: true });
    expect(built.method).toBe('POST');
    expect(built.uri).toBe('/nmt/v1/translation');
    expect(JSON.parse(built.body!)).toEqual({ source: 'en', target: 'ko', text: 'a&b=c?', honorific: true });
  });

  it('PUT: E4 body is {jobCondition}, the job id only in the path', () => {
    const built = build('dataflow_update_job_execution_options', {
      jobId: 'j1',
      jobCondition: { ...JOB, numWorker: 3 },
    });
    expect(JSON.parse(built.body!)).toEqual({ jobCondition: { ...JOB, numWorker: 3 } });
  });

  it('PUT E8: no body at all', () => {
    const built = build('datacatalog_run_scanner', { catalogId: 1, scannerId: 2 });
    expect(built.method).toBe('PUT');
    expect(built.body).toBeUndefined();
  });

  it('POST E12: model in the path, the spec defaults in the body', () => {
    const built = build('textgen_create_completion', { text: 'hi' });
    expect(built.uri).toBe('/testapp/v1/completions/LK-D2');
    expect(JSON.parse(built.body!)).toEqual({
      text: 'hi',
      maxTokens: 100,
      temperature: 0.5,
      topK: 0,
      topP: 0.8,
      repeatPenalty: 5,
      stopBefore: [],
      includeAiFilters: true,
    });
  });
});

describe('service URL with a proxy prefix', () => {
  it('puts the prefix in front of the path, in the URL and in the signed URI', () => {
    const built = build('kms_migrate_key', { keyTag: 'k1', targetRegion: 'JPN' }, 'http://127.0.0.1:9000/proxy/kms');
    expect(built.uri).toBe('/proxy/kms/kms/v1/keys/k1/migrate');
    expect(built.url).toBe('http://127.0.0.1:9000/proxy/kms/kms/v1/keys/k1/migrate');
  });

  it('a trailing slash on the prefix does not double the slash', () => {
    const built = build('search_list_tokenizer_languages', {}, 'https://gw.example/p/');
    expect(built.url).toBe('https://gw.example/p/CloudSearch/real/v1/tokenizer');
  });

  it('a bare origin adds nothing', () => {
    const built = build('apigateway_list_products', { limit: 1 }, 'https://gw.example');
    expect(built.url).toBe('https://gw.example/api/v1/products?limit=1');
    expect(built.uri).toBe('/api/v1/products?limit=1');
  });
});
