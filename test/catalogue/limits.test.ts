/**
 * Limits the spec does not state (issue 18, points 6 and 7): what is unambiguous is taken and normalised, what the
 * platform decides is sent, and the published input schema says the same as the server's own check. Each call goes
 * through prepare (validation and the request as it would be sent); the published schema is checked with the
 * validator an MCP client uses.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/catalogue.js';
import { SERVICES, type AnyOperation } from '../../src/catalogue/types.js';
import { CallFailure } from '../../src/failures.js';
import { readArguments } from '../../src/call/arguments.js';
import { prepareRequest } from '../../src/upstream/request.js';
import { compiled } from '../helpers/attempts.js';
import { toolDefinition } from '../../src/mcp/catalogue-tools.js';
import { sharedLazyValidator } from '../../src/mcp/schema-validator.js';
import { growthFactor, LINEAR } from '../helpers/cost.js';

const config = {
  serviceUrls: Object.fromEntries(SERVICES.map((s) => [s, 'http://upstream.test'])),
  credentials: {
    gateway: { accessKey: 'AK', secretKey: 'SK' },
    appKeys: { maps: { clientId: 'c', clientSecret: 's' }, translation: { clientId: 'c', clientSecret: 's' } },
    studio: { apiKey: 'a', gatewayKey: 'g' },
  },
  streamingRegion: 'KR',
  timeoutMs: 1000,
  limits: { maxConcurrentCalls: 1, maxResponseBytes: 1024, maxResultBytes: 1024, workflowTimeoutMs: 1000 },
} as never;

const op = (name: string): AnyOperation => CATALOGUE.find((o) => o.name === name)!;
/** The arguments stage and the request as it would be sent, as the pipeline runs them. */
const prepare = (name: string, args: Record<string, unknown>) => {
  const operation = compiled(op(name));
  return prepareRequest(operation, readArguments(operation, args).args, config);
};
const sent = (name: string, args: Record<string, unknown>) => prepare(name, args).built;
const refusal = (name: string, args: Record<string, unknown>) => {
  try {
    prepare(name, args);
  } catch (error) {
    expect(error).toBeInstanceOf(CallFailure);
    expect((error as CallFailure).code).toBe('invalid_input');
    return (error as CallFailure).message;
  }
  throw new Error(`${name} accepted ${JSON.stringify(args)}`);
};
/** Whether the tool's published input schema accepts the arguments (what a validating client checks). */
const published = (name: string, args: Record<string, unknown>) =>
  sharedLazyValidator().getValidator(toolDefinition(op(name)).inputSchema as never)(args).valid;
const query = (uri: string) => new URLSearchParams(uri.slice(uri.indexOf('?') + 1));

describe('E5 coords: what is unambiguous is taken and sent as plain decimals', () => {
  it.each([
    ['127.1054, 37.3595', '127.1054,37.3595'],
    [' 127.1054 ,37.3595 ', '127.1054,37.3595'],
    ['+127.1054,+37.3595', '127.1054,37.3595'],
    ['1.271054e2,3.73595E1', '127.1054,37.3595'],
    ['1271054e-4,373595E-4', '127.1054,37.3595'],
    ['-.5,5.', '-0.5,5'],
    ['1.5e3,2e-3', '1500,0.002'],
    ['127.1054,37.3595', '127.1054,37.3595'],
    ['955000.10,1950000', '955000.10,1950000'],
  ])('%j is sent as %j', (coords, wire) => {
    expect(query(sent('maps_reverse_geocode', { coords }).uri).get('coords')).toBe(wire);
    expect(published('maps_reverse_geocode', { coords })).toBe(true);
  });

  it.each(['127.1', '127.1 37.5', '127,37,1', 'a,b', '1e1000,1', '127.1,,37', ',37.5', '0x10,1'])(
    '%j is refused, by the schema too',
    (coords) => {
      expect(refusal('maps_reverse_geocode', { coords })).toMatch(/coords: must be "x,y"/);
      expect(published('maps_reverse_geocode', { coords })).toBe(false);
    },
  );

  it('checks a long answer-sized coords in linear time (no backtracking)', async () => {
    const coordsOf = (length: number) => `${'1'.repeat(length)}x`;
    const check = (coords: string) => refusal('maps_reverse_geocode', { coords });
    expect(check(coordsOf(500_000))).toMatch(/coords/);
    expect(await growthFactor(coordsOf, check, 500_000)).toBeLessThan(LINEAR);
  });
});

describe('E5 sourcecrs/targetcrs: any case, in the server and in the published schema alike', () => {
  it.each(['EPSG:4326', 'epsg:3857', 'Svc:2048', 'sVC:2048'])(
    '%j is accepted and sent as the spec writes it',
    (code) => {
      expect(published('maps_reverse_geocode', { coords: '1,2', sourcecrs: code, targetcrs: code })).toBe(true);
      const q = query(sent('maps_reverse_geocode', { coords: '1,2', sourcecrs: code, targetcrs: code }).uri);
      expect([q.get('sourcecrs'), q.get('targetcrs')]).toEqual([code.toUpperCase(), code.toUpperCase()]);
    },
  );

  it.each(['EPSG:2048', 'SVC:4326', 'EPSG:43261', 'WGS84', ''])('%j is refused by both', (code) => {
    expect(refusal('maps_reverse_geocode', { coords: '1,2', sourcecrs: code })).toMatch(
      /sourcecrs: must be EPSG:4326, EPSG:3857, SVC:2048 \(any case\)/,
    );
    expect(published('maps_reverse_geocode', { coords: '1,2', sourcecrs: code })).toBe(false);
  });
});

describe('where the platform decides, the tool sends', () => {
  it('E12 model: any name, LK-D2 by default', () => {
    expect(sent('textgen_create_completion', { text: 'hi', model: 'HCX-003' }).uri).toBe(
      '/testapp/v1/completions/HCX-003',
    );
    expect(sent('textgen_create_completion', { text: 'hi' }).uri).toBe('/testapp/v1/completions/LK-D2');
    expect(published('textgen_create_completion', { text: 'hi', model: 'HCX-003' })).toBe(true);
    expect(refusal('textgen_create_completion', { text: 'hi', model: '..' })).toMatch(/model/);
  });

  it('E13 document: any object, none of the members the spec shows required', () => {
    expect(JSON.parse(sent('search_update_schema', { name: 'shop', document: {} }).body!)).toEqual({ document: {} });
    const partial = { indexes: [{ name: 'title_idx' }], extra: true };
    expect(JSON.parse(sent('search_update_schema', { name: 'shop', document: partial }).body!)).toEqual({
      document: partial,
    });
    expect(published('search_update_schema', { name: 'shop', document: {} })).toBe(true);
    expect(refusal('search_update_schema', { name: 'shop', document: 'schema' })).toMatch(/document/);
  });

  it("E13 document: the size bound is the server's, and says so", () => {
    const document = { primarySectionName: 'x'.repeat(1024 * 1024) };
    expect(refusal('search_update_schema', { name: 'shop', document })).toMatch(
      /must be at most 1048576 bytes as JSON \(this server's limit\)/,
    );
  });

  it.each([
    ['translation_translate_text', { source: 'ko', target: 'en', text: 'a', glossaryKey: '', replaceInfo: '' }],
    ['dataflow_update_job_execution_options', { jobId: 'j', jobCondition: { nrn: '', scriptPath: '', logPath: '' } }],
    ['apigateway_list_products', { hasStageNotAssociatedWithUsagePlanId: '' }],
    ['textgen_create_completion', { text: 'a', stopBefore: [''] }],
  ])('%s: empty strings the spec gives no minimum for are sent', (name, args) => {
    expect(() => sent(name, args)).not.toThrow();
    expect(published(name, args)).toBe(true);
  });

  it('E8 ids: any integer, negative ones included (the spec says Integer and no range)', () => {
    expect(sent('datacatalog_run_scanner', { catalogId: -1, scannerId: 0 }).uri).toBe(
      '/api/v1/catalogs/-1/scanners/0/run-scanner',
    );
    expect(published('datacatalog_run_scanner', { catalogId: -1, scannerId: 0 })).toBe(true);
    expect(refusal('datacatalog_run_scanner', { catalogId: 1.5, scannerId: 0 })).toMatch(/catalogId/);
  });

  it("E12 text and stopBefore: their bounds are the server's, and the schema says so", () => {
    const properties = (
      toolDefinition(op('textgen_create_completion')).inputSchema as {
        properties: Record<string, { description?: string }>;
      }
    ).properties;
    expect(properties.text!.description).toMatch(/this server's/);
    expect(properties.stopBefore!.description).toMatch(/this server's/);
  });
});
