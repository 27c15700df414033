import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, textOf, type SpawnedServer } from '../../helpers/spawn-server.js';

/**
 * The newcomer's path: `svc-platform-mcp --sandbox` with no environment at all, every tool through the SDK
 * Client over stdio, and state that changes between calls. Fixture ids come from src/sandbox/fixtures.
 */
let server: SpawnedServer;
beforeAll(async () => {
  server = await spawnServer({}, ['--sandbox']);
});
afterAll(async () => {
  await server?.close();
});

async function ok(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result: CallToolResult = await server.call(name, args);
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  expect(result.structuredContent).toBeDefined();
  expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

async function fails(name: string, args: Record<string, unknown>, pattern: RegExp): Promise<void> {
  const result = await server.call(name, args);
  expect(result.isError).toBe(true);
  expect(textOf(result)).toMatch(pattern);
}

type Page = {
  result: {
    currentPage: number;
    isLast: boolean;
    totalPage: number;
    kafkaConfigGroupList: { configGroupNo: number; kafkaVersionCode: unknown }[];
  };
};

describe('--sandbox with no environment', () => {
  it('says it is a sandbox on stderr and in the instructions', () => {
    expect(server.stderr()).toMatch(/SANDBOX MODE/);
    expect(server.client.getInstructions()).toMatch(/SANDBOX MODE/);
  });

  it('E1 pages really page, in every Region, with integer version codes', async () => {
    const page1 = (await ok('streaming_list_config_groups', {
      kafkaVersionCode: 2080100,
      pageSize: 10,
    })) as unknown as Page;
    const page3 = (await ok('streaming_list_config_groups', {
      kafkaVersionCode: 2080100,
      pageSize: 10,
      pageNo: 3,
    })) as unknown as Page;
    expect(page1.result.kafkaConfigGroupList).toHaveLength(10);
    expect(page3.result.kafkaConfigGroupList).toHaveLength(3);
    expect(page1.result.totalPage).toBe(3);
    expect(page3.result.isLast).toBe(true);
    const numbers = (p: Page) => p.result.kafkaConfigGroupList.map((g) => g.configGroupNo);
    expect(numbers(page1)).not.toEqual(numbers(page3));
    for (const group of [...page1.result.kafkaConfigGroupList, ...page3.result.kafkaConfigGroupList]) {
      expect(group.kafkaVersionCode).toBe(2080100);
    }
    const jpn = (await ok('streaming_list_config_groups', {
      region: 'JPN',
      kafkaVersionCode: 3050100,
    })) as unknown as Page;
    expect(jpn.result.kafkaConfigGroupList).toHaveLength(5);
  });

  it('E2 lists G3 images', async () => {
    const images = await ok('streaming_list_server_images', { generationCode: 'G3', region: 'SGN' });
    expect((images.result as { serverImageList: unknown[] }).serverImageList.length).toBeGreaterThan(0);
  });

  it('E3 translates, both directions of a pair', async () => {
    const out = await ok('translation_translate_text', { source: 'ko', target: 'en', text: '감사합니다.' });
    expect(out).toMatchObject({
      message: { result: { srcLangType: 'ko', tarLangType: 'en', translatedText: 'Thank you.' } },
    });
    await ok('translation_translate_text', { source: 'ja', target: 'ko', text: 'ありがとうございます。' });
  });

  it('E4 updates a job and the update is seen', async () => {
    const condition = {
      nrn: 'nrn:test:job',
      scriptPath: 'obs://s/a.py',
      logPath: 'obs://l/',
      numWorker: 7,
      timeout: 30,
    };
    const first = await ok('dataflow_update_job_execution_options', {
      jobId: 'job-draft-report',
      jobCondition: condition,
    });
    expect(first.runCondition).toMatchObject(condition);
    const second = await ok('dataflow_update_job_execution_options', {
      jobId: 'job-draft-report',
      jobCondition: { nrn: 'nrn:test:job', scriptPath: 'obs://s/b.py', logPath: 'obs://l/' },
    });
    expect(second.runCondition).toMatchObject({ numWorker: 7, scriptPath: 'obs://s/b.py' });
    expect(String(second.updatedDate) >= String(first.updatedDate)).toBe(true);
  });

  it('E5 reverse geocodes in JSON by default, and gives XML as text when asked', async () => {
    const out = await ok('maps_reverse_geocode', {
      coords: '126.97843,37.56668',
      orders: 'legalcode,admcode,addr,roadaddr',
    });
    expect((out.results as { name: string }[]).map((r) => r.name)).toEqual([
      'legalcode',
      'admcode',
      'addr',
      'roadaddr',
    ]);
    const sea = await ok('maps_reverse_geocode', { coords: '129.5,35.0' });
    expect(sea.status).toMatchObject({ code: 3 });
    const xml = await server.call('maps_reverse_geocode', { coords: '126.97843,37.56668', output: 'xml' });
    expect(xml.isError).toBeFalsy();
    // The output schema (issue 26) asks for structured content: it says where the answer is.
    expect(xml.structuredContent).toEqual({ answeredAs: 'xml' });
    expect(textOf(xml)).toMatch(/^<\?xml/);
  });

  it('E6 adds a method response; adding it twice is refused', async () => {
    const args = {
      productId: 'prd-orders',
      apiId: 'api-orders-v1',
      resourceId: 'res-orders',
      methodName: 'GET',
      statusCode: 418,
    };
    const out = await ok('apigateway_create_method_response', args);
    expect(out.methodResponseDto).toMatchObject({ apiId: 'api-orders-v1', statusCode: 418 });
    await fails('apigateway_create_method_response', args, /HTTP 409/);
  });

  it('E7 pages and filters products', async () => {
    const first = await ok('apigateway_list_products', { offset: 0, limit: 5 });
    const second = await ok('apigateway_list_products', { offset: '5', limit: 5 });
    const ids = (p: Record<string, unknown>) =>
      (p.productPage as { content: { productId: string }[] }).content.map((c) => c.productId);
    expect(ids(first)).toHaveLength(5);
    expect(ids(second)).not.toEqual(ids(first));
    const published = await ok('apigateway_list_products', { isPublished: false });
    expect(
      (published.productPage as { content: { isPublished: boolean }[] }).content.every((p) => !p.isPublished),
    ).toBe(true);
  });

  it('E8 starts a scanner', async () => {
    expect(await ok('datacatalog_run_scanner', { catalogId: 1001, scannerId: 2002 })).toMatchObject({
      scannerId: 2002,
      status: 'SCANNER_STARTING',
    });
  });

  it('E9 knows taken names', async () => {
    expect(
      await ok('bigdata_check_app_name', { accountId: '4fRk2Q9xLmN7pVb3TzYc1H', name: 'spark-etl' }),
    ).toMatchObject({ availableName: false });
    expect(
      await ok('bigdata_check_app_name', { accountId: '4fRk2Q9xLmN7pVb3TzYc1H', name: 'fresh-app' }),
    ).toMatchObject({ availableName: true });
  });

  it('E10 returns default schemas', async () => {
    expect(await ok('recommendation_get_default_schema', { datasetType: 'item' })).toMatchObject({
      datasetType: 'item',
    });
  });

  it('E11 deletes a service; it is gone afterwards', async () => {
    await ok('recommendation_delete_service', { serviceId: 'rcs-similar-item', confirm: 'rcs-similar-item' });
    await fails(
      'recommendation_delete_service',
      { serviceId: 'rcs-similar-item', confirm: 'rcs-similar-item' },
      /gateway error 300: /,
    );
  });

  it('E12 generates, honouring maxTokens', async () => {
    const out = await ok('textgen_create_completion', { text: 'Describe a data pipeline.', maxTokens: 5 });
    expect(out.result).toMatchObject({ stopReason: 'length', outputLength: 5 });
    // Issue 26: what the agent gets says, as data, that no model wrote it.
    expect((out.result as { simulated?: string }).simulated).toMatch(/^Simulated by the sandbox, not a language model/);
  });

  it('E13 adds an index but refuses to drop one', async () => {
    const korean = { type: 'hanaterm', method: 'sgmt', option: '+korea +josacat +eomicat' };
    const index = (name: string, section: string) => ({
      name,
      documentTermWeight: 'sum_wgt',
      buildInfos: [
        { name: `${section}_build`, sections: [section], sectionTermWeight: '1.0', indexProcessors: [korean] },
      ],
    });
    const sections = ['product_id', 'title', 'description'].map((name) => ({
      name,
      docProperties: [{ type: 'string', name }],
    }));
    const current = [index('title_idx', 'title'), index('description_idx', 'description')];
    const added = await server.call('search_update_schema', {
      name: 'products',
      document: { primarySectionName: 'product_id', sections, indexes: [...current, index('id_idx', 'product_id')] },
    });
    const dropped = await server.call('search_update_schema', {
      name: 'products',
      document: { primarySectionName: 'product_id', sections, indexes: [current[0]] },
    });
    expect(added.isError, textOf(added)).toBeFalsy();
    expect(dropped.isError).toBe(true);
    expect(textOf(dropped)).toMatch(/description_idx/);
  });

  it('E14 lists the six tokenizer languages', async () => {
    const out = await ok('search_list_tokenizer_languages', {});
    expect((out.languages as { language: string }[]).map((l) => l.language)).toEqual([
      'chinese',
      'english',
      'indonesian',
      'japanese',
      'korean',
      'thai',
    ]);
  });

  it('E15 migrates a key; the global key is gone, a same-name key in the Region is refused', async () => {
    expect(
      await ok('kms_migrate_key', { keyTag: 'kt-orders-3f9a1c', targetRegion: 'KR', confirm: 'kt-orders-3f9a1c' }),
    ).toMatchObject({
      code: 'SUCCESS',
      data: { targetRegion: 'KR' },
    });
    await fails(
      'kms_migrate_key',
      { keyTag: 'kt-orders-3f9a1c', targetRegion: 'JPN', confirm: 'kt-orders-3f9a1c' },
      /HTTP 404/,
    );
    await fails(
      'kms_migrate_key',
      { keyTag: 'kt-pii-5c8d0e', targetRegion: 'JPN', confirm: 'kt-pii-5c8d0e' },
      /HTTP 400/,
    );
  });
});
