import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/catalogue.js';
import { checkAppName } from '../../src/catalogue/bigdata.js';
import { createMethodResponse, listProducts } from '../../src/catalogue/apigateway.js';
import { updateJobExecutionOptions } from '../../src/catalogue/dataflow.js';
import { runScanner } from '../../src/catalogue/datacatalog.js';
import { migrateKey } from '../../src/catalogue/kms.js';
import { reverseGeocode } from '../../src/catalogue/maps.js';
import { deleteService, getDefaultSchema } from '../../src/catalogue/recommendation.js';
import { listConfigGroups } from '../../src/catalogue/streaming.js';
import { listTokenizerLanguages } from '../../src/catalogue/search.js';
import { createCompletion } from '../../src/catalogue/textgen.js';
import { translateText } from '../../src/catalogue/translation.js';
import type { AnyOperation } from '../../src/catalogue/types.js';
import { CallFailure } from '../../src/failures.js';
import { interpretResponse } from '../../src/upstream/response.js';
import type { AnswerForm } from '../../src/catalogue/compile.js';
import { compiled } from '../helpers/attempts.js';
import { toolDefinition } from '../../src/mcp/catalogue-tools.js';
import { toJsonSchema } from '../../src/mcp/json-schema.js';
import { sharedLazyValidator } from '../../src/mcp/schema-validator.js';

const json = (body: unknown, status = 200) => ({ status, contentType: 'application/json', text: JSON.stringify(body) });

/** The answer's value, checked against the output schema the tool publishes (what an MCP client validates with). */
async function answered(
  op: AnyOperation,
  res: { status: number; contentType: string; text: string },
): Promise<unknown> {
  const answer = await interpretResponse(compiled(op), res);
  expect(answer.kind).toBe('json');
  const schema = toolDefinition(op).outputSchema;
  if (schema) {
    const check = sharedLazyValidator().getValidator(schema as never)(answer.value);
    expect(check.valid, `${op.name}: ${check.errorMessage}`).toBe(true);
  }
  return answer.value;
}

/** The form E5's arguments would have asked for, read off the answer the test gives (XML, JSONP or JSON). */
const askedFor = (res: { text: string }): AnswerForm =>
  res.text.trimStart().startsWith('<') ? 'xml' : /^\s*[\w$.-]+\s*\(/.test(res.text) ? 'jsonp' : 'json';

async function failure(
  op: AnyOperation,
  res: { status: number; contentType: string; text: string },
  asked: AnswerForm = askedFor(res),
): Promise<CallFailure> {
  try {
    await interpretResponse(compiled(op), res, asked);
  } catch (error) {
    expect(error).toBeInstanceOf(CallFailure);
    return error as CallFailure;
  }
  throw new Error('expected a failure');
}

describe('null and missing fields the spec does not guarantee are an answer, not an error', () => {
  it.each([
    ['E9 message', checkAppName, { success: true, availableName: true, message: null }],
    [
      'E6 responseDescription',
      createMethodResponse,
      {
        methodResponseDto: {
          tenantId: 't',
          apiId: 'a',
          resourceId: 'r',
          methodCode: '0001',
          statusCode: 200,
          responseDescription: null,
          modifier: null,
        },
      },
    ],
    [
      'E4 name, nodes, runCondition',
      updateJobExecutionOptions,
      { jobId: 'j1', name: null, nodes: null, runCondition: null, status: null },
    ],
    [
      'E5 land, code and an area',
      reverseGeocode,
      {
        status: { code: 0, name: 'ok', message: null },
        results: [
          { name: 'legalcode', code: null, region: { area0: null, area1: { name: 'x', coords: null } }, land: null },
        ],
      },
    ],
    [
      'E7 initialCount, total, product fields',
      listProducts,
      {
        initialCount: null,
        productPage: { total: null, content: [{ productId: 'p', productDescription: null, isPublished: null }] },
      },
    ],
    [
      'E10 description, categorical',
      getDefaultSchema,
      {
        datasetType: 'user',
        name: null,
        description: null,
        fields: [{ name: 'AGE', type: ['int', 'null'], categorical: null }],
      },
    ],
    [
      'E1 message, requestId, page fields, list',
      listConfigGroups,
      {
        code: 0,
        message: null,
        requestId: null,
        result: { currentPage: null, totalCount: null, kafkaConfigGroupList: null },
      },
    ],
    [
      'E3 srcLangType',
      translateText,
      { message: { result: { srcLangType: null, tarLangType: 'en', translatedText: 'Hello' } } },
    ],
    [
      'E12 token counts and filters',
      createCompletion,
      { status: { code: '20000', message: null }, result: { text: 'hi', inputLength: null, aiFilters: null } },
    ],
    ['E15 data members', migrateKey, { code: 'SUCCESS', data: { keyTag: null, targetRegion: 'KR' } }],
  ])('%s', async (_, op, body) => {
    expect(await answered(op, json(body))).toEqual(body);
  });

  it('passes fields the spec does not list through', async () => {
    const body = {
      scannerId: 7,
      name: 's',
      status: 'SCANNER_STARTING',
      startedAt: '2026-01-01',
      extra: { nested: [1] },
    };
    expect(await answered(runScanner, json(body))).toEqual(body);
  });

  it('moves a value of another type than the spec says to offSpec, and still answers', async () => {
    const body = { methodResponseDto: { apiId: 'a', statusCode: 'two hundred', responseDescription: 42 } };
    expect(await answered(createMethodResponse, json(body))).toEqual({
      methodResponseDto: { apiId: 'a' },
      offSpec: { 'methodResponseDto.statusCode': 'two hundred', 'methodResponseDto.responseDescription': 42 },
    });
    // In a list, the item keeps its own: a shortened list takes them along.
    expect(await answered(getDefaultSchema, json({ fields: [{ name: 'A', type: 'string' }], name: ['x'] }))).toEqual({
      fields: [{ name: 'A', offSpec: { type: 'string' } }],
      offSpec: { name: ['x'] },
    });
  });

  it('keeps an item of another type than the spec says in its place, as {"offSpec": {"": item}}', async () => {
    const content = [{ productId: 'a' }, null, { productId: 7, productName: 'b' }, 'c'];
    expect(await answered(listProducts, json({ productPage: { content } }))).toEqual({
      productPage: {
        content: [
          { productId: 'a' },
          { offSpec: { '': null } },
          { productName: 'b', offSpec: { productId: 7 } },
          { offSpec: { '': 'c' } },
        ],
      },
    });
    // A list a success carries, too; and a list of strings (E10's type) in an item of a list.
    expect(await answered(listTokenizerLanguages, json(['thai', { language: 'ko' }]))).toEqual({
      languages: [{ offSpec: { '': 'thai' } }, { language: 'ko' }],
    });
    expect(await answered(getDefaultSchema, json({ fields: [{ name: 'A', type: ['string', 3] }] }))).toEqual({
      fields: [{ name: 'A', type: ['string', { offSpec: { '': 3 } }] }],
    });
    // E12's probs: a number, or a list of them.
    const status = { code: '20000' };
    expect(await answered(createCompletion, json({ status, result: { probs: [0.5, 'x'] } }))).toEqual({
      status,
      result: { probs: [0.5, { offSpec: { '': 'x' } }] },
    });
  });

  it('reads a long list item by item, with the same outcome', async () => {
    const content = Array.from({ length: 1000 }, (_, i) => (i % 100 === 7 ? { productId: i } : { productId: `${i}` }));
    const value = (await answered(listProducts, json({ productPage: { total: '1000', content } }))) as {
      productPage: { total: number; content: unknown[] };
    };
    expect(value.productPage.total).toBe(1000);
    expect(value.productPage.content).toHaveLength(1000);
    expect(value.productPage.content[7]).toEqual({ offSpec: { productId: 7 } });
    expect(value.productPage.content[8]).toEqual({ productId: '8' });
  });

  it('takes an Integer sent as digits as the integer (E1 kafkaVersionCode, as the spec warns)', async () => {
    const body = {
      code: '0',
      result: { totalCount: '3', kafkaConfigGroupList: [{ kafkaVersionCode: '3050100', configGroupNo: 1201 }] },
    };
    expect(await answered(listConfigGroups, json(body))).toEqual({
      code: 0,
      result: { totalCount: 3, kafkaConfigGroupList: [{ kafkaVersionCode: 3050100, configGroupNo: 1201 }] },
    });
  });
});

describe('published output schemas say integer for Integer and allow null for what may be missing', () => {
  const property = (op: AnyOperation, path: string) => {
    let node = toJsonSchema(op.output, 'output');
    for (const key of path.split('.')) {
      const found = key === '[]' ? node.items : (node.properties as Record<string, unknown> | undefined)?.[key];
      node = (found ??
        ((node.anyOf as Record<string, unknown>[]) ?? [])
          .map((b) => (key === '[]' ? b.items : (b.properties as Record<string, unknown> | undefined)?.[key]))
          .find(Boolean)) as Record<string, unknown>;
    }
    return node;
  };
  const types = (node: Record<string, unknown>) =>
    ((node.anyOf as { type: string | string[] }[] | undefined) ?? [node as { type: string | string[] }]).flatMap(
      (b) => b.type,
    );

  it.each(
    (
      [
        [listProducts, 'initialCount'],
        [listProducts, 'productPage.total'],
        [listConfigGroups, 'result.totalCount'],
        [listConfigGroups, 'result.kafkaConfigGroupList.[].configGroupNo'],
        [createMethodResponse, 'methodResponseDto.statusCode'],
        [runScanner, 'scannerId'],
        [createCompletion, 'result.inputLength'],
        [updateJobExecutionOptions, 'runCondition.numWorker'],
      ] as [AnyOperation, string][]
    ).map(([op, path]) => [op.id, path, op] as const),
  )('%s %s: integer, exact digits beyond 2^53, or null', async (_, path, op) => {
    const node = property(op, path);
    expect(types(node)).toEqual(['integer', 'string', 'null']);
    expect(JSON.stringify(node)).toMatch(/beyond 2\^53/);
  });

  it('says number for a Float (E5 x) and allows null', async () => {
    expect(types(property(reverseGeocode, 'results.[].land.coords.center.x'))).toEqual(['number', 'null']);
  });
});

describe('an answer without what a success carries is an error that says so', () => {
  // What each operation's success carries, from the spec's response descriptions (and its success codes).
  const CARRIES: Record<string, string> = {
    E1: 'code 0 and result',
    E2: 'code 0 and result',
    E3: 'message.result.translatedText',
    E4: 'jobId',
    E5: 'status.code 0 or 3',
    E6: 'methodResponseDto',
    E7: 'productPage',
    E8: 'status',
    E9: 'availableName',
    E10: 'fields',
    E11: 'result',
    E12: 'status.code 20000 and result',
    E13: 'result',
    E14: 'languages',
    E15: 'code SUCCESS and data',
  };

  it.each(CATALOGUE.map((op) => [op.id, op] as const))('%s: an empty 2xx body', async (id, op) => {
    const error = await failure(op, { status: 200, contentType: 'application/json', text: '' });
    expect(error.code).toBe('unexpected_response');
    expect(error.message).toBe(
      `the upstream answered HTTP 200 with an empty body; a success of ${id} carries ${CARRIES[id]}`,
    );
  });

  it('E11 answered 204 with no body: the spec says a success carries result', async () => {
    expect((await failure(deleteService, { status: 204, contentType: '', text: '' })).message).toBe(
      'the upstream answered HTTP 204 with an empty body; a success of E11 carries result',
    );
  });

  it('names what is missing or not as the spec says', async () => {
    expect((await failure(migrateKey, json({ code: 'SUCCESS' }))).message).toBe(
      'the upstream answered HTTP 200 with no data; a success of E15 carries code SUCCESS and data: {"code":"SUCCESS"}',
    );
    expect((await failure(migrateKey, json({}))).message).toMatch(
      /^the upstream answered HTTP 200 with no code, no data;/,
    );
    expect((await failure(translateText, json({ message: { result: { translatedText: 5 } } }))).message).toMatch(
      /with message\.result\.translatedText that is not as the spec says \(.*expected string.*\); a success of E3 carries/,
    );
    expect((await failure(createCompletion, json({ result: { text: 'x' } }))).message).toMatch(/with no status;/);
    // A list a success carries must be a list (its items are read as any list's).
    expect((await failure(listTokenizerLanguages, json({ languages: 'thai' }))).message).toMatch(
      /^the upstream answered HTTP 200 with languages that is not as the spec says \(.*expected array.*\); a success of E14 carries languages/,
    );
  });
});

describe('integers beyond 2^53 are handed on exactly', () => {
  it('E7 total and initialCount, as their digits', async () => {
    const text = '{"initialCount":9007199254740993,"productPage":{"total":12345678901234567890,"content":[]}}';
    expect(await answered(listProducts, { status: 200, contentType: 'application/json', text })).toEqual({
      initialCount: '9007199254740993',
      productPage: { total: '12345678901234567890', content: [] },
    });
  });
});

describe('documented failure codes in a 2xx answer', () => {
  it('E15 code other than SUCCESS is a refusal that says what the body says', async () => {
    const error = await failure(migrateKey, json({ code: 'FAIL', data: { reason: 'exists' } }));
    expect(error.message).toBe('upstream error FAIL: {"data":{"reason":"exists"}}');
    expect(error.refused).toBe(true);
    expect(error.upstreamCode).toBe('FAIL');
  });

  it('an answer without the code is not a refusal', async () => {
    expect((await failure(migrateKey, json({ data: {} }))).refused).toBe(false);
  });
});

describe('E5 answers in JSONP and XML: their maps status decides', () => {
  const jsonp = (body: unknown, status = 200) => ({
    status,
    contentType: 'application/javascript',
    text: `cb(${JSON.stringify(body)});`,
  });
  const xml = (code: number, status = 200) => ({
    status,
    contentType: 'application/xml;charset=utf-8',
    text: `<?xml version="1.0" encoding="UTF-8"?>\n<response>\n  <status>\n    <code>${code}</code>\n    <name>${code === 0 ? 'ok' : 'invalid request'}</name>\n    <message>coords &amp; more</message>\n  </status>\n  <results/>\n</response>\n`,
  });

  it('JSONP with status 100 at HTTP 200 is an error with its code', async () => {
    const error = await failure(
      reverseGeocode,
      jsonp({ status: { code: 100, name: 'invalid request', message: 'bad coords' } }),
    );
    expect(error.code).toBe('upstream_error');
    expect(error.upstreamCode).toBe('100');
    expect(error.message).toBe('upstream error 100: invalid request: bad coords');
  });

  it('JSONP and XML at HTTP 400 keep the maps code', async () => {
    const fromJsonp = await failure(
      reverseGeocode,
      jsonp({ status: { code: 100, name: 'invalid request', message: 'bad coords' } }, 400),
    );
    expect([fromJsonp.code, fromJsonp.upstreamCode, fromJsonp.httpStatus]).toEqual(['upstream_error', '100', 400]);
    const fromXml = await failure(reverseGeocode, xml(100, 400));
    expect([fromXml.code, fromXml.upstreamCode, fromXml.message]).toEqual([
      'upstream_error',
      '100',
      'upstream error 100: invalid request: coords & more (HTTP 400)',
    ]);
  });

  it('XML with status 900 at HTTP 200 is an error; status 0 and 3 are answers, passed on as text', async () => {
    expect((await failure(reverseGeocode, xml(900))).upstreamCode).toBe('900');
    for (const code of [0, 3])
      expect(await interpretResponse(compiled(reverseGeocode), xml(code), askedFor(xml(code)))).toEqual({
        kind: 'text',
        value: xml(code).text,
      });
    const ok = jsonp({ status: { code: 0, name: 'ok' }, results: [] });
    expect(await interpretResponse(compiled(reverseGeocode), ok, askedFor(ok))).toEqual({
      kind: 'text',
      value: ok.text,
    });
  });

  it('passes a JSONP answer through as text even when labelled application/json', async () => {
    const text = 'cb({"status":{"code":0}})';
    expect(
      await interpretResponse(
        compiled(reverseGeocode),
        { status: 200, contentType: 'application/json', text },
        'jsonp',
      ),
    ).toEqual({
      kind: 'text',
      value: text,
    });
  });

  it('JSONP without its status lacks what a success carries', async () => {
    expect((await failure(reverseGeocode, jsonp({ results: [] }))).message).toMatch(
      /with no status; a success of E5 carries status\.code 0 or 3/,
    );
  });
});

describe('E5 answers in another form than the one asked for', () => {
  const text = (body: string, contentType = 'text/plain') => ({ status: 200, contentType, text: body });
  it.each([
    ['a truncated JSON body', text('{"status":{"code":0},"results":[', 'application/json')],
    ['OK as text/plain', text('OK')],
    ['an HTML login page', text('<html><body><form action="/login">Sign in</form></body></html>', 'text/html')],
  ])('JSON asked: %s is malformed, not a success', async (_, res) => {
    expect((await failure(reverseGeocode, res, 'json')).code).toBe('malformed_response');
  });

  it.each([
    ['a truncated JSONP body', text('cb({"status":{"code":0},"results":[')],
    ['JSONP with trailing code', text('cb({"status":{"code":0},"results":[]}); alert(1)')],
    ['JSONP with JavaScript-style keys', text('cb({status:{code:0},results:[]})')],
    ['XML where JSONP was asked', text('<response><status><code>0</code></status></response>')],
  ])('JSONP asked: %s is malformed', async (_, res) => {
    expect((await failure(reverseGeocode, res, 'jsonp')).message).toMatch(/is not JSONP/);
  });

  it('takes JSONP under any callback name it was asked with, and JSON where XML was asked', async () => {
    const jsonpAnswer = text('my-cb.v2({"status":{"code":0,"name":"ok"},"results":[]});');
    expect(await interpretResponse(compiled(reverseGeocode), jsonpAnswer, 'jsonp')).toEqual({
      kind: 'text',
      value: jsonpAnswer.text,
    });
    const jsonAnswer = json({ status: { code: 0, name: 'ok' }, results: [] });
    expect((await interpretResponse(compiled(reverseGeocode), jsonAnswer, 'xml')).kind).toBe('json');
  });
});

// Issue 33, point 8.
describe('what the reader keeps exact and where its notes go', () => {
  const text = (body: string) => ({ status: 200, contentType: 'application/javascript', text: body });
  it('refuses JSONP wrapped in another callback than the one asked for, naming the one that came', async () => {
    const res = text('other_cb({"status":{"code":0,"name":"ok"},"results":[]});');
    const refused = await (async () => {
      try {
        await interpretResponse(compiled(reverseGeocode), res, 'jsonp', undefined, { callback: 'mine' });
      } catch (error) {
        return error as CallFailure;
      }
      throw new Error('expected a failure');
    })();
    expect(refused.code).toBe('malformed_response');
    expect(refused.message).toContain('wrapped in other_cb(...) where mine(...) was asked for');
    const same = text('mine({"status":{"code":0,"name":"ok"},"results":[]});');
    const taken = await interpretResponse(compiled(reverseGeocode), same, 'jsonp', undefined, { callback: 'mine' });
    expect(taken).toEqual({ kind: 'text', value: same.text });
  });

  it('keeps 9223372036854775807.0 exact, and 1e400 in a Float under offSpec as sent', async () => {
    const res = {
      status: 200,
      contentType: 'application/json',
      text:
        '{"status":{"code":0,"name":"ok"},"results":[{"name":"legalcode","region":{"area0":{"name":"kr",' +
        '"coords":{"center":{"crs":"","x":1e400,"y":37.5}}}}}],"big":9223372036854775807.0}',
    };
    const value = (await answered(reverseGeocode, res)) as {
      big: unknown;
      results: { region: { area0: { coords: { center: Record<string, unknown> } } }; offSpec: unknown }[];
    };
    expect(value.big).toBe('9223372036854775807');
    expect(value.results[0]!.region.area0.coords.center).toEqual({ crs: '', y: 37.5 });
    expect(value.results[0]!.offSpec).toEqual({ 'region.area0.coords.center.x': '1e400' });
  });

  it("sets the upstream's own offSpec member aside under its own path, in the answer and in a list item", async () => {
    const value = await answered(
      listProducts,
      json({
        offSpec: { theirs: 1 },
        initialCount: 'many',
        productPage: {
          content: [
            { productId: 7, offSpec: 'item note' },
            { productId: 'p', offSpec: { a: 1 } },
          ],
        },
      }),
    );
    expect(value).toEqual({
      offSpec: { offSpec: { theirs: 1 }, initialCount: 'many' },
      productPage: {
        content: [
          { offSpec: { productId: 7, offSpec: 'item note' } },
          { productId: 'p', offSpec: { offSpec: { a: 1 } } },
        ],
      },
    });
    // Alone, it is set aside all the same: the note's name is the reader's.
    expect(await answered(listProducts, json({ offSpec: 'x', productPage: { content: [] } }))).toEqual({
      offSpec: { offSpec: 'x' },
      productPage: { content: [] },
    });
  });
});

describe('other answers', () => {
  it('still calls a broken JSON answer malformed for a JSON-only operation', async () => {
    await expect(
      interpretResponse(compiled(listProducts), {
        status: 200,
        contentType: 'application/json',
        text: '{"productPage":',
      }),
    ).rejects.toThrow(/not valid JSON/);
  });

  it('an empty body or one of no form: a refusal says its status, a success what it lacks, whatever was asked', async () => {
    const res = (status: number, text: string, contentType = 'application/json') => ({ status, contentType, text });
    expect((await failure(listProducts, res(502, ''))).message).toBe('upstream answered HTTP 502: (empty body).');
    expect((await failure(reverseGeocode, res(500, '<html><b>oops</b></html>', 'text/html'), 'jsonp')).message).toBe(
      'upstream answered HTTP 500: oops.',
    );
    for (const asked of ['json', 'jsonp', 'xml'] as const) {
      const empty = await failure(reverseGeocode, res(200, ' \n', 'application/xml'), asked);
      expect([empty.code, empty.httpStatus]).toEqual(['unexpected_response', 200]);
      expect(empty.message).toMatch(
        /^the upstream answered HTTP 200 with an empty body; a success of E5 carries status\.code 0 or 3/,
      );
    }
  });

  it('says when the upstream asked to retry later', async () => {
    const error = await failure(listProducts, {
      status: 503,
      contentType: 'text/plain',
      text: 'busy',
      retryAfterMs: 7000,
    } as never);
    expect(error.message).toBe('upstream answered HTTP 503: busy. The upstream asked to retry after 7 s.');
    expect(error.retryable).toBe(true);
  });

  it("a gateway error: one code and the upstream's words, the HTTP status after them; the code's meaning only without words", async () => {
    const body = (error: object) =>
      ({ status: 400, contentType: 'application/json', text: JSON.stringify({ error }) }) as never;
    expect(
      (await failure(createMethodResponse, body({ errorCode: '100', message: 'Bad Request Exception' }))).message,
    ).toBe('gateway error 100: Bad Request Exception. (HTTP 400)');
    expect((await failure(createMethodResponse, body({ errorCode: '100' }))).message).toBe(
      'gateway error 100: bad request. (HTTP 400)',
    );
  });

  // Issue 26: the gateway answers a duplicate with code 100 "Bad Request Exception"; HTTP 409 is what says conflict.
  it('a 409 says conflict first, whatever the body', async () => {
    const answer = (text: string, contentType = 'application/json') => ({ status: 409, contentType, text }) as never;
    const gateway = JSON.stringify({ error: { errorCode: '100', message: 'Bad Request Exception' } });
    expect((await failure(createMethodResponse, answer(gateway))).message).toBe(
      'conflict: it already exists, or clashes with its current state. gateway error 100: Bad Request Exception. (HTTP 409)',
    );
    expect((await failure(migrateKey, answer(JSON.stringify({ code: 'FAIL', message: 'duplicate' })))).message).toMatch(
      /^conflict: it already exists, or clashes with its current state\. upstream error FAIL: duplicate/,
    );
    expect((await failure(migrateKey, answer('taken', 'text/plain'))).message).toMatch(
      /^conflict: .* upstream answered HTTP 409/,
    );
  });
});
