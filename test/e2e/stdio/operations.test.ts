/**
 * End to end: the built server (dist/cli.js) spawned over stdio and driven by the SDK's Client, pointed at a
 * recording HTTP server. For each of the fifteen tools: the exact method, path, query, body and auth headers
 * that arrive (gateway signatures recomputed here with node:crypto), and the result the agent gets back.
 * Every expected value is written out by hand from the spec and the tool names users depend on.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startRecordingServer,
  type RecordedRequest,
  type Reply,
  type RecordingServer,
} from '../../helpers/recording-server.js';
import { spawnServer, textOf, type SpawnedServer } from '../../helpers/spawn-server.js';
import {
  CREDENTIALS,
  SECRETS,
  expectGatewaySignature,
  expectNoSignature,
  fullEnv,
  jsonBody,
  splitUrl,
} from '../../helpers/upstream.js';

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

beforeEach(() => upstream.reset());

/** Calls a tool that must succeed after exactly one upstream request; returns the result and that request. */
async function callOnce(
  name: string,
  args: Record<string, unknown>,
  reply: Reply,
): Promise<{ result: CallToolResult; req: RecordedRequest }> {
  upstream.reply(reply);
  const result = await server.call(name, args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(upstream.requests).toHaveLength(1);
  return { result, req: upstream.requests[0]! };
}

/** structuredContent is the expected JSON, and content[0].text is the same JSON. */
function expectJsonResult(result: CallToolResult, expected: unknown): void {
  expect(result.structuredContent).toEqual(expected);
  expect(JSON.parse(textOf(result))).toEqual(expected);
}

describe('E1 streaming_list_config_groups', () => {
  const upstreamBody = {
    code: 0,
    message: 'SUCCESS',
    requestId: '5c1f8e7a-3b0e-4b8a-9a51-1d2f3e4a5b6c',
    result: {
      currentPage: 2,
      isFirst: false,
      isLast: true,
      pageSize: 5,
      totalCount: 6,
      totalPage: 2,
      kafkaConfigGroupList: [
        {
          kafkaVersionCode: '3050100',
          kafkaVersion: '3.5.1',
          configGroupNo: 17,
          configGroupName: 'cg-low-latency',
          description: 'tuned for latency',
          permission: 'RW',
        },
      ],
    },
  };

  it('POSTs to the Singapore prefix with the body and a valid signature; kafkaVersionCode comes back as an integer', async () => {
    const { result, req } = await callOnce(
      'streaming_list_config_groups',
      { region: 'SGN', kafkaVersionCode: 3050100, pageNo: 2, pageSize: 5 },
      { body: upstreamBody },
    );
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/api/sgn-v1/configGroup/getKafkaVersionConfigGroupList');
    expect(jsonBody(req)).toEqual({ kafkaVersionCode: 3050100, pageNo: 2, pageSize: 5 });
    expectGatewaySignature(req);
    expectJsonResult(result, {
      code: 0,
      message: 'SUCCESS',
      requestId: '5c1f8e7a-3b0e-4b8a-9a51-1d2f3e4a5b6c',
      result: {
        currentPage: 2,
        isFirst: false,
        isLast: true,
        pageSize: 5,
        totalCount: 6,
        totalPage: 2,
        kafkaConfigGroupList: [
          {
            kafkaVersionCode: 3050100,
            kafkaVersion: '3.5.1',
            configGroupNo: 17,
            configGroupName: 'cg-low-latency',
            description: 'tuned for latency',
            permission: 'RW',
          },
        ],
      },
    });
  });

  it('defaults to Korea (/api/v1) and sends the spec defaults pageNo 1, pageSize 10', async () => {
    const { req } = await callOnce(
      'streaming_list_config_groups',
      { kafkaVersionCode: 2080000 },
      { body: upstreamBody },
    );
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/api/v1/configGroup/getKafkaVersionConfigGroupList');
    expect(jsonBody(req)).toEqual({ kafkaVersionCode: 2080000, pageNo: 1, pageSize: 10 });
    expectGatewaySignature(req);
  });

  it.each([
    ['KR', '/api/v1/configGroup/getKafkaVersionConfigGroupList'],
    ['SGN', '/api/sgn-v1/configGroup/getKafkaVersionConfigGroupList'],
    ['JPN', '/api/jpn-v1/configGroup/getKafkaVersionConfigGroupList'],
  ])('region %s goes to %s', async (region, path) => {
    const { req } = await callOnce(
      'streaming_list_config_groups',
      { region, kafkaVersionCode: 1 },
      { body: upstreamBody },
    );
    expect(req.url).toBe(path);
    expect(jsonBody(req)).toEqual({ kafkaVersionCode: 1, pageNo: 1, pageSize: 10 });
    expectGatewaySignature(req);
  });
});

describe('E2 streaming_list_server_images', () => {
  const upstreamBody = {
    code: 0,
    message: 'SUCCESS',
    requestId: '0d2c4b6a-8e9f-4a1b-b2c3-d4e5f6a7b8c9',
    result: {
      serverImageList: [
        {
          serverImageNo: 104630229,
          softwareProductCode: 'SW.VSVR.OS.LNX64.ROCKY.0810.B050',
          serverName: 'rocky-8.10-base',
          order: 1,
        },
      ],
    },
  };

  it.each([
    ['KR', '/api/v1/cluster/getClusterServerImageList'],
    ['SGN', '/api/sgn-v1/cluster/getClusterServerImageList'],
    ['JPN', '/api/jpn-v1/cluster/getClusterServerImageList'],
  ])('region %s: GET %s?generationCode=G3', async (region, path) => {
    const { result, req } = await callOnce(
      'streaming_list_server_images',
      { region, generationCode: 'G3' },
      { body: upstreamBody },
    );
    expect(req.method).toBe('GET');
    expect(req.url).toBe(`${path}?generationCode=G3`);
    expect(req.body).toBe('');
    expectGatewaySignature(req);
    expectJsonResult(result, upstreamBody);
  });

  it('without arguments sends no query', async () => {
    const { req } = await callOnce('streaming_list_server_images', {}, { body: upstreamBody });
    expect(req.method).toBe('GET');
    expect(req.url).toBe('/api/v1/cluster/getClusterServerImageList');
    expectGatewaySignature(req);
  });
});

describe('E3 translation_translate_text', () => {
  it('POSTs JSON to /nmt/v1/translation with the translation app key pair (per-service override), unsigned', async () => {
    const upstreamBody = {
      message: {
        '@type': 'response',
        '@service': 'naverservice.labs.api',
        '@version': '1.0.0',
        result: { srcLangType: 'ko', tarLangType: 'ja', translatedText: 'こんにちは' },
      },
    };
    const { result, req } = await callOnce(
      'translation_translate_text',
      { source: 'ko', target: 'ja', text: '안녕하세요', glossaryKey: 'gl-01', honorific: true },
      { body: upstreamBody },
    );
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/nmt/v1/translation');
    expect(jsonBody(req)).toEqual({
      source: 'ko',
      target: 'ja',
      text: '안녕하세요',
      glossaryKey: 'gl-01',
      honorific: true,
    });
    // The spec spells these names in upper case (X-SVC-APIGW-API-KEY-ID); node lower-cases names on receipt.
    expect(req.headers['x-svc-apigw-api-key-id']).toBe(CREDENTIALS.SVC_TRANSLATION_CLIENT_ID);
    expect(req.headers['x-svc-apigw-api-key']).toBe(CREDENTIALS.SVC_TRANSLATION_CLIENT_SECRET);
    expectNoSignature(req);
    expectJsonResult(result, upstreamBody);
  });

  it('accepts the reverse of a listed pair (ja -> ko) and source auto', async () => {
    const body = { message: { result: { srcLangType: 'ja', tarLangType: 'ko', translatedText: '안녕' } } };
    const first = await callOnce(
      'translation_translate_text',
      { source: 'ja', target: 'ko', text: 'こんにちは' },
      { body },
    );
    expect(jsonBody(first.req)).toEqual({ source: 'ja', target: 'ko', text: 'こんにちは' });
    upstream.reset();
    const second = await callOnce(
      'translation_translate_text',
      { source: 'auto', target: 'ko', text: 'hello' },
      { body },
    );
    expect(jsonBody(second.req)).toEqual({ source: 'auto', target: 'ko', text: 'hello' });
  });
});

describe('E4 dataflow_update_job_execution_options', () => {
  it('PUTs the job condition to /api/v1/jobs/{jobId}/executions with the job id percent-encoded', async () => {
    const job = {
      jobId: 'job 7/x',
      name: 'nightly',
      type: 'DATAFLOW',
      status: 'RUNNABLE',
      nodes: [{ type: 'SOURCE_OBS', id: 1, name: 'src', parentNodeIds: [] }],
      runCondition: {
        numWorker: 4,
        timeout: 120,
        nrn: 'nrn:PUB:DataFlow::1:Job/7',
        scriptPath: 'obs://b/scripts/',
        logPath: 'obs://b/logs/',
      },
      createdDate: '2024-05-01T10:00:00+09:00',
      updatedDate: '2024-05-02T11:30:00+09:00',
    };
    const jobCondition = {
      numWorker: 4,
      timeout: 120,
      nrn: 'nrn:PUB:DataFlow::1:Job/7',
      scriptPath: 'obs://b/scripts/',
      logPath: 'obs://b/logs/',
    };
    const { result, req } = await callOnce(
      'dataflow_update_job_execution_options',
      { jobId: 'job 7/x', jobCondition },
      { body: job },
    );
    expect(req.method).toBe('PUT');
    expect(req.url).toBe('/api/v1/jobs/job%207%2Fx/executions');
    expect(jsonBody(req)).toEqual({ jobCondition });
    expectGatewaySignature(req);
    expectJsonResult(result, job);
  });
});

describe('E5 maps_reverse_geocode', () => {
  const geocode = {
    status: { code: 0, name: 'ok', message: 'done' },
    results: [
      {
        name: 'legalcode',
        code: { id: '4113510900', type: 'L', mappingId: '02113109' },
        region: {
          area0: { name: 'kr', coords: { center: { crs: '', x: 0, y: 0 } } },
          area1: { name: '경기도', coords: { center: { crs: 'EPSG:4326', x: 127.5, y: 37.3 } }, alias: '경기' },
        },
      },
    ],
  };

  it('GETs /map-reversegeocode/v2/gc with output=json and the lower-case app key pair', async () => {
    const { result, req } = await callOnce(
      'maps_reverse_geocode',
      { coords: '127.1054,37.3595', sourcecrs: 'EPSG:4326', orders: 'legalcode,admcode,addr' },
      { body: geocode },
    );
    expect(req.method).toBe('GET');
    const { path, query } = splitUrl(req.url);
    expect(path).toBe('/map-reversegeocode/v2/gc');
    expect(query).toEqual(
      ['coords=127.1054%2C37.3595', 'orders=legalcode%2Cadmcode%2Caddr', 'output=json', 'sourcecrs=EPSG%3A4326'].sort(),
    );
    expect(req.headers['x-svc-apigw-api-key-id']).toBe(CREDENTIALS.SVC_CLIENT_ID);
    expect(req.headers['x-svc-apigw-api-key']).toBe(CREDENTIALS.SVC_CLIENT_SECRET);
    expect(req.headers.accept).toBe('*/*');
    expectNoSignature(req);
    expectJsonResult(result, geocode);
  });

  it('with output xml returns the XML as text, and structured content that says so', async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?><response><status><code>0</code><name>ok</name></status></response>';
    const { result, req } = await callOnce(
      'maps_reverse_geocode',
      { coords: '127.1054,37.3595', output: 'xml' },
      { headers: { 'content-type': 'application/xml;charset=UTF-8' }, body: xml },
    );
    const { path, query } = splitUrl(req.url);
    expect(path).toBe('/map-reversegeocode/v2/gc');
    expect(query).toEqual(['coords=127.1054%2C37.3595', 'output=xml']);
    // An operation that may answer XML or JSONP does not ask for JSON only.
    expect(req.headers.accept).toBe('*/*');
    expect(req.headers['user-agent']).toBe('svc-platform-mcp/0.1.0');
    // The output schema (issue 26) asks for structured content: it says where the answer is.
    expect(result.structuredContent).toEqual({ answeredAs: 'xml' });
    expect(result.content).toEqual([{ type: 'text', text: xml }]);
  });
});

describe('E5 output schema (issue 26)', () => {
  it('is published, and a JSON answer and a JSONP answer both match it', async () => {
    const tool = server.tools.find((t) => t.name === 'maps_reverse_geocode')!;
    expect(tool.outputSchema?.type).toBe('object');
    upstream.reply({ body: { status: { code: 0, name: 'ok', message: 'done' }, results: [] } });
    // The SDK client checks structured content against the output schema: a mismatch would fail the call.
    const json = await server.call('maps_reverse_geocode', { coords: '127.1054,37.3595' });
    expect(json.isError, textOf(json)).toBeFalsy();
    upstream.reply({
      headers: { 'content-type': 'application/javascript' },
      body: 'cb({"status":{"code":0,"name":"ok","message":"done"},"results":[]})',
    });
    const jsonp = await server.call('maps_reverse_geocode', { coords: '127.1054,37.3595', callback: 'cb' });
    expect(jsonp.isError, textOf(jsonp)).toBeFalsy();
    expect(jsonp.structuredContent).toEqual({ answeredAs: 'jsonp' });
  });
});

describe('E6 apigateway_create_method_response', () => {
  it('POSTs statusCode and responseDescription under /api/v1/products/...', async () => {
    const dto = {
      methodResponseDto: {
        tenantId: 't-1',
        apiId: 'api 1',
        resourceId: 'res-9',
        methodCode: '0002',
        statusCode: 201,
        responseDescription: 'Created',
        modifier: 'user-1',
      },
    };
    const { result, req } = await callOnce(
      'apigateway_create_method_response',
      {
        productId: 'prod-1',
        apiId: 'api 1',
        resourceId: 'res-9',
        methodName: 'POST',
        statusCode: 201,
        responseDescription: 'Created',
      },
      { body: dto },
    );
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/api/v1/products/prod-1/apis/api%201/resources/res-9/methods/POST/responses');
    expect(jsonBody(req)).toEqual({ statusCode: 201, responseDescription: 'Created' });
    expectGatewaySignature(req);
    expectJsonResult(result, dto);
  });
});

describe('E7 apigateway_list_products', () => {
  const page = {
    initialCount: 1,
    productPage: {
      total: 1,
      content: [
        {
          productId: 'p-1',
          productName: '한글 상품',
          isPublished: true,
          subscriptionCode: 'PUBLIC',
          hasDeployedStage: false,
          modTime: '2024-05-01T10:00:00.123+09:00',
          domainCode: 'PUB',
        },
      ],
    },
  };

  it('GETs /api/v1/products with a percent-encoded non-ASCII productName, and the signature covers it', async () => {
    const { result, req } = await callOnce(
      'apigateway_list_products',
      {
        offset: '9223372036854775807',
        limit: 20,
        productName: '한글 상품',
        isPublished: true,
        subscriptionCode: 'PUBLIC',
      },
      { body: page },
    );
    expect(req.method).toBe('GET');
    const { path, query } = splitUrl(req.url);
    expect(path).toBe('/api/v1/products');
    expect(query).toEqual(
      [
        'offset=9223372036854775807',
        'limit=20',
        'productName=%ED%95%9C%EA%B8%80%20%EC%83%81%ED%92%88',
        'isPublished=true',
        'subscriptionCode=PUBLIC',
      ].sort(),
    );
    expectGatewaySignature(req);
    expectJsonResult(result, page);
  });

  it("signs what goes on the wire when a value has characters URL parsers re-encode (')", async () => {
    const { req } = await callOnce('apigateway_list_products', { productName: "O'Reilly (beta)!*" }, { body: page });
    const { path, query } = splitUrl(req.url);
    expect(path).toBe('/api/v1/products');
    expect(query).toHaveLength(1);
    expect(decodeURIComponent(query[0]!)).toBe("productName=O'Reilly (beta)!*");
    expectGatewaySignature(req);
  });

  it('without arguments sends no query', async () => {
    const { req } = await callOnce('apigateway_list_products', {}, { body: page });
    expect(req.url).toBe('/api/v1/products');
    expectGatewaySignature(req);
  });
});

describe('E8 datacatalog_run_scanner', () => {
  it('PUTs /api/v1/catalogs/{catalogId}/scanners/{scannerId}/run-scanner with no body', async () => {
    const started = { scannerId: 34, name: 'orders-scan', status: 'SCANNER_STARTING' };
    const { result, req } = await callOnce(
      'datacatalog_run_scanner',
      { catalogId: 12, scannerId: 34 },
      { body: started },
    );
    expect(req.method).toBe('PUT');
    expect(req.url).toBe('/api/v1/catalogs/12/scanners/34/run-scanner');
    expect(req.body).toBe('');
    expect(req.headers['content-type']).toBeUndefined();
    expectGatewaySignature(req);
    expectJsonResult(result, started);
  });
});

describe('E9 bigdata_check_app_name', () => {
  it('POSTs accountId and name to /api/v2/apps/checkAvailableName', async () => {
    const answer = { success: true, availableName: false, message: 'The app name already exists.' };
    const { result, req } = await callOnce(
      'bigdata_check_app_name',
      { accountId: '7N42dgm5tFLK9N8MT7fHC7', name: 'my-app-01' },
      { body: answer },
    );
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/api/v2/apps/checkAvailableName');
    expect(jsonBody(req)).toEqual({ accountId: '7N42dgm5tFLK9N8MT7fHC7', name: 'my-app-01' });
    expectGatewaySignature(req);
    expectJsonResult(result, answer);
  });
});

describe('E10 recommendation_get_default_schema', () => {
  it('GETs /api/v1/schemas/default?datasetType=item', async () => {
    const schema = {
      datasetType: 'item',
      name: 'item',
      description: 'default item schema',
      fields: [
        { name: 'ITEM_ID', type: ['string'] },
        { name: 'CATEGORY', type: ['string', 'null'], categorical: true },
      ],
    };
    const { result, req } = await callOnce(
      'recommendation_get_default_schema',
      { datasetType: 'item' },
      { body: schema },
    );
    expect(req.method).toBe('GET');
    expect(req.url).toBe('/api/v1/schemas/default?datasetType=item');
    expect(req.body).toBe('');
    expectGatewaySignature(req);
    expectJsonResult(result, schema);
  });
});

describe('E11 recommendation_delete_service', () => {
  it('DELETEs /api/v1/services/{serviceId} with no body', async () => {
    const { result, req } = await callOnce(
      'recommendation_delete_service',
      { serviceId: 'svc-42', confirm: 'svc-42' },
      { body: { result: 'Service deleted.' } },
    );
    expect(req.method).toBe('DELETE');
    expect(req.url).toBe('/api/v1/services/svc-42');
    expect(req.body).toBe('');
    expectGatewaySignature(req);
    expectJsonResult(result, { result: 'Service deleted.' });
  });
});

describe('E12 textgen_create_completion', () => {
  const completion = {
    status: { code: '20000', message: 'OK' },
    result: {
      text: 'Once upon a time there was a cat.',
      stopReason: 'length',
      inputLength: 4,
      outputLength: 6,
      aiFilters: [
        { groupName: 'curse', name: 'insult', score: '2' },
        { groupName: 'unsafeContents', name: 'sexualHarassment', score: '2' },
      ],
    },
  };

  it('POSTs to /testapp/v1/completions/LK-D2 with the studio keys and a fresh request id per call', async () => {
    const first = await callOnce('textgen_create_completion', { text: 'Once upon a time' }, { body: completion });
    const req = first.req;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/testapp/v1/completions/LK-D2');
    expect(jsonBody(req)).toEqual({
      text: 'Once upon a time',
      maxTokens: 100,
      temperature: 0.5,
      topK: 0,
      topP: 0.8,
      repeatPenalty: 5,
      stopBefore: [],
      includeAiFilters: true,
    });
    expect(req.headers['content-type']).toMatch(/^application\/json\b/);
    expect(req.headers['x-svc-studio-api-key']).toBe(CREDENTIALS.SVC_STUDIO_API_KEY);
    expect(req.headers['x-svc-apigw-api-key']).toBe(CREDENTIALS.SVC_STUDIO_GATEWAY_KEY);
    const firstId = req.headers['x-svc-studio-request-id'];
    expect(firstId).toMatch(/\S{8,}/);
    expectNoSignature(req);
    expectJsonResult(first.result, completion);

    upstream.reset();
    const second = await callOnce(
      'textgen_create_completion',
      {
        model: 'LK-D2',
        text: 'Hi',
        maxTokens: 2048,
        temperature: 1,
        topK: 128,
        topP: 1,
        repeatPenalty: 10,
        stopBefore: ['\n'],
        includeTokens: true,
        includeAiFilters: false,
        start: 'A:',
        restart: 'B:',
      },
      { body: completion },
    );
    expect(jsonBody(second.req)).toEqual({
      text: 'Hi',
      maxTokens: 2048,
      temperature: 1,
      topK: 128,
      topP: 1,
      repeatPenalty: 10,
      stopBefore: ['\n'],
      includeTokens: true,
      includeAiFilters: false,
      start: 'A:',
      restart: 'B:',
    });
    const secondId = second.req.headers['x-svc-studio-request-id'];
    expect(secondId).toMatch(/\S{8,}/);
    expect(secondId).not.toBe(firstId);
  });
});

describe('E13 search_update_schema', () => {
  it('PUTs the document to /CloudSearch/real/v1/domain/{name}/schema', async () => {
    const document = {
      primarySectionName: 'body',
      sections: [{ name: 'body', docProperties: [{ type: 'string', name: 'title' }] }],
      indexes: [
        {
          name: 'title_idx',
          documentTermWeight: 'sum_wgt',
          buildInfos: [
            {
              name: 'title_bld',
              sections: ['body'],
              sectionTermWeight: 'sum_wgt',
              indexProcessors: [{ type: 'hanaterm', method: 'sgmt', option: '+korea +josacat +eomicat' }],
            },
          ],
        },
      ],
    };
    const { result, req } = await callOnce(
      'search_update_schema',
      { name: 'shop-domain', document },
      { body: { result: 'schema edited' } },
    );
    expect(req.method).toBe('PUT');
    expect(req.url).toBe('/CloudSearch/real/v1/domain/shop-domain/schema');
    expect(jsonBody(req)).toEqual({ document });
    expectGatewaySignature(req);
    expectJsonResult(result, { result: 'schema edited' });
  });
});

describe('E14 search_list_tokenizer_languages', () => {
  it('GETs /CloudSearch/real/v1/tokenizer; the bare array comes back as {languages: [...]}', async () => {
    const languages = [
      { language: 'english', type: 'hanaterm', method: 'sgmt', option: '+english +revert' },
      { language: 'korean', type: 'hanaterm', method: 'sgmt', option: '+korea +josacat +eomicat' },
    ];
    const { result, req } = await callOnce('search_list_tokenizer_languages', {}, { body: languages });
    expect(req.method).toBe('GET');
    expect(req.url).toBe('/CloudSearch/real/v1/tokenizer');
    expect(req.body).toBe('');
    expectGatewaySignature(req);
    expectJsonResult(result, { languages });
  });
});

describe('E15 kms_migrate_key', () => {
  it('POSTs targetRegion to /kms/v1/keys/{keyTag}/migrate', async () => {
    const answer = { code: 'SUCCESS', data: { keyTag: '3f2a9c1b7e', targetRegion: 'JPN' } };
    const { result, req } = await callOnce(
      'kms_migrate_key',
      { keyTag: '3f2a9c1b7e', targetRegion: 'JPN', confirm: '3f2a9c1b7e' },
      { body: answer },
    );
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/kms/v1/keys/3f2a9c1b7e/migrate');
    expect(jsonBody(req)).toEqual({ targetRegion: 'JPN' });
    expectGatewaySignature(req);
    expectJsonResult(result, answer);
  });
});

describe('the tool list', () => {
  it('has the fifteen tools, by the names users depend on', () => {
    // Other tools (workflows) may be listed too; the fifteen operations must all be there.
    expect(server.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'streaming_list_config_groups',
        'streaming_list_server_images',
        'translation_translate_text',
        'dataflow_update_job_execution_options',
        'maps_reverse_geocode',
        'apigateway_create_method_response',
        'apigateway_list_products',
        'datacatalog_run_scanner',
        'bigdata_check_app_name',
        'recommendation_get_default_schema',
        'recommendation_delete_service',
        'textgen_create_completion',
        'search_update_schema',
        'search_list_tokenizer_languages',
        'kms_migrate_key',
      ]),
    );
  });

  it('no secret appeared on stderr', () => {
    for (const secret of SECRETS) expect(server.stderr()).not.toContain(secret);
  });
});

describe('per-service URL with a path prefix, and SVC_STREAMING_REGION', () => {
  let proxied: SpawnedServer;
  beforeAll(async () => {
    proxied = await spawnServer({
      SVC_KMS_URL: `${upstream.url}/proxy/kms/`,
      SVC_STREAMING_URL: upstream.url,
      SVC_STREAMING_REGION: 'JPN',
      SVC_ACCESS_KEY: 'OTHERACCESSKEY',
      SVC_SECRET_KEY: 'other-secret-Wk2Rt5Yp8',
    });
  }, 30_000);
  afterAll(async () => {
    await proxied?.close();
  });

  it('puts the prefix in front of the path and signs the full path', async () => {
    upstream.reply({ body: { code: 'SUCCESS', data: { keyTag: 'k-1', targetRegion: 'KR' } } });
    const result = await proxied.call('kms_migrate_key', { keyTag: 'k-1', targetRegion: 'KR', confirm: 'k-1' });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(upstream.requests).toHaveLength(1);
    const req = upstream.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/proxy/kms/kms/v1/keys/k-1/migrate');
    expect(jsonBody(req)).toEqual({ targetRegion: 'KR' });
    expectGatewaySignature(req, 'OTHERACCESSKEY', 'other-secret-Wk2Rt5Yp8');
  });

  it('says that default in the region argument of E1/E2 in tools/list', () => {
    for (const name of ['streaming_list_config_groups', 'streaming_list_server_images']) {
      const region = (
        proxied.tools.find((t) => t.name === name)?.inputSchema.properties as Record<string, { description?: string }>
      ).region;
      expect(region?.description, name).toBe('Default: JPN');
    }
  });

  it('takes the default region of E1/E2 from SVC_STREAMING_REGION', async () => {
    upstream.reply({ body: { code: 0, message: 'SUCCESS', result: { serverImageList: [] } } });
    const result = await proxied.call('streaming_list_server_images', {});
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(upstream.requests.map((r) => r.url)).toEqual(['/api/jpn-v1/cluster/getClusterServerImageList']);
    expectGatewaySignature(upstream.requests[0]!, 'OTHERACCESSKEY', 'other-secret-Wk2Rt5Yp8');
  });

  it('a service with no URL of its own and no SVC_GATEWAY_URL is not configured, and nothing is sent', async () => {
    const result = await proxied.call('recommendation_delete_service', { serviceId: 'x', confirm: 'x' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toContain('SVC_RECOMMENDATION_URL');
    expect(textOf(result)).toContain('SVC_GATEWAY_URL');
    expect(upstream.requests).toHaveLength(0);
  });
});
