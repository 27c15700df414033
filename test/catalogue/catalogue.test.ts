/**
 * The tools as MCP sees them, the fifteen operations and the workflow tool alike: invariants every tool must keep,
 * with the expected names, fields and hints written out from the spec and the tool names users depend on. The
 * definitions as a whole are src/generated/tool-definitions.json (`npm run generate`; test/docs/generated.test.ts
 * compares): a schema change shows in its diff.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/catalogue.js';
import { computeToolDefinitions } from '../../src/mcp/tool-definitions.js';
import { sharedLazyValidator } from '../../src/mcp/schema-validator.js';

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  [key: string]: unknown;
};

const definitions = Object.values(computeToolDefinitions()).map((def) => ({ def }));
const byName = (name: string) => {
  const found = definitions.find((d) => d.def.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found.def;
};
const input = (name: string) => byName(name).inputSchema as Schema;
const prop = (name: string, path: string): Schema => {
  let node: Schema = input(name);
  for (const key of path.split('.')) node = node.properties![key]!;
  return node;
};

/** The tool names, E1-E15: a fixed interface (users' settings and allow lists name them). */
const FIXED_TOOL_NAMES: Record<string, string> = {
  E1: 'streaming_list_config_groups',
  E2: 'streaming_list_server_images',
  E3: 'translation_translate_text',
  E4: 'dataflow_update_job_execution_options',
  E5: 'maps_reverse_geocode',
  E6: 'apigateway_create_method_response',
  E7: 'apigateway_list_products',
  E8: 'datacatalog_run_scanner',
  E9: 'bigdata_check_app_name',
  E10: 'recommendation_get_default_schema',
  E11: 'recommendation_delete_service',
  E12: 'textgen_create_completion',
  E13: 'search_update_schema',
  E14: 'search_list_tokenizer_languages',
  E15: 'kms_migrate_key',
};

/**
 * Every argument of every tool (spec field names; camelCase path parameters; region for E1/E2; this server's
 * dryRun on every tool that changes something and confirm on the destructive ones), and the required ones.
 */
const FIELDS: Record<string, { all: string[]; required: string[] }> = {
  streaming_list_config_groups: {
    all: ['region', 'kafkaVersionCode', 'pageNo', 'pageSize'],
    required: ['kafkaVersionCode'],
  },
  streaming_list_server_images: { all: ['region', 'generationCode'], required: [] },
  translation_translate_text: {
    all: ['source', 'target', 'text', 'glossaryKey', 'replaceInfo', 'honorific'],
    required: ['source', 'target', 'text'],
  },
  dataflow_update_job_execution_options: {
    all: ['jobId', 'jobCondition', 'dryRun'],
    required: ['jobId', 'jobCondition'],
  },
  maps_reverse_geocode: {
    all: ['coords', 'sourcecrs', 'targetcrs', 'orders', 'output', 'callback'],
    required: ['coords'],
  },
  apigateway_create_method_response: {
    all: ['productId', 'apiId', 'resourceId', 'methodName', 'statusCode', 'responseDescription', 'dryRun'],
    required: ['productId', 'apiId', 'resourceId', 'methodName', 'statusCode'],
  },
  apigateway_list_products: {
    all: [
      'offset',
      'limit',
      'productName',
      'isPublished',
      'subscriptionCode',
      'hasDeployedStage',
      'hasStageNotAssociatedWithUsagePlanId',
    ],
    required: [],
  },
  datacatalog_run_scanner: { all: ['catalogId', 'scannerId', 'dryRun'], required: ['catalogId', 'scannerId'] },
  bigdata_check_app_name: { all: ['accountId', 'name'], required: ['accountId', 'name'] },
  recommendation_get_default_schema: { all: ['datasetType'], required: ['datasetType'] },
  recommendation_delete_service: { all: ['serviceId', 'dryRun', 'confirm'], required: ['serviceId'] },
  textgen_create_completion: {
    all: [
      'model',
      'text',
      'includeAiFilters',
      'includeTokens',
      'maxTokens',
      'repeatPenalty',
      'restart',
      'start',
      'stopBefore',
      'temperature',
      'topK',
      'topP',
    ],
    // model defaults to LK-D2, the model of the spec's sample.
    required: ['text'],
  },
  search_update_schema: { all: ['name', 'document', 'dryRun'], required: ['name', 'document'] },
  search_list_tokenizer_languages: { all: [], required: [] },
  kms_migrate_key: { all: ['keyTag', 'targetRegion', 'dryRun', 'confirm'], required: ['keyTag', 'targetRegion'] },
  translate_and_summarize: {
    all: ['text', 'target', 'source', 'length', 'honorific', 'glossaryKey', 'summarize'],
    required: ['text', 'target'],
  },
};

/**
 * Arguments whose name is their whole description: a description would repeat the schema (issue 6: "no repetition
 * between description and schema"), and every byte of a tool list is read by the model on every turn.
 */
const SELF_EXPLANATORY = new Set([
  'productId',
  'apiId',
  'resourceId',
  'jobId',
  'serviceId',
  'keyTag',
  'catalogId',
  'scannerId',
  'statusCode',
  'responseDescription',
  'pageNo',
  'pageSize',
  'isPublished',
  'hasDeployedStage',
  'text',
  'name',
  'includeTokens',
  'includeAiFilters',
  'repeatPenalty',
  'topK',
  'topP',
  'jobCondition.numWorker',
  'jobCondition.scriptPath',
  'jobCondition.logPath',
  'model',
]);

describe('catalogue invariants', () => {
  it('has the fifteen operations, in spec order, with their fixed tool names, then the workflow tool', () => {
    expect(Object.fromEntries(CATALOGUE.map((op) => [op.id, op.name]))).toEqual(FIXED_TOOL_NAMES);
    expect(CATALOGUE.map((op) => op.id)).toEqual(Object.keys(FIXED_TOOL_NAMES));
    expect(definitions.map((d) => d.def.name)).toEqual([...Object.values(FIXED_TOOL_NAMES), 'translate_and_summarize']);
  });

  it('describes every tool by its fields: the table above covers them all', () => {
    expect(Object.keys(FIELDS).sort()).toEqual(definitions.map((d) => d.def.name).sort());
  });

  it.each(definitions.map((d) => [d.def.name, d.def] as const))(
    '%s: name, title, description, annotations',
    (name, def) => {
      expect(name).toMatch(/^[a-z0-9_]{1,48}$/);
      expect(typeof def.title).toBe('string');
      expect(def.title!.trim().length).toBeGreaterThan(5);
      expect(typeof def.description).toBe('string');
      expect(def.description!.trim().length).toBeGreaterThan(30);
      expect(def.annotations).toBeDefined();
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(typeof def.annotations![hint], `${name}.${hint}`).toBe('boolean');
      }
      // A read-only tool cannot also be destructive.
      if (def.annotations!.readOnlyHint) expect(def.annotations!.destructiveHint).toBe(false);
    },
  );

  it.each(definitions.map((d) => [d.def.name, d.def] as const))(
    '%s: input schema is a plain object schema',
    (name, def) => {
      const schema = def.inputSchema as Schema;
      expect(schema.type).toBe('object');
      expect(schema.properties).toBeDefined();
      const text = JSON.stringify(schema);
      expect(text).not.toContain('$ref');
      expect(text).not.toContain('$defs');
      expect(text).not.toContain('definitions');
      for (const combinator of ['anyOf', 'oneOf', 'allOf', 'not', 'if'])
        expect(schema[combinator], combinator).toBeUndefined();
      // Unknown arguments are refused, and the schema says so.
      expect(schema.additionalProperties).toBe(false);
      if (def.outputSchema) {
        expect(def.outputSchema.type).toBe('object');
        expect(JSON.stringify(def.outputSchema)).not.toContain('$ref');
      }
    },
  );

  it.each(Object.entries(FIELDS))('%s: every spec field, and exactly the required ones', (name, fields) => {
    const schema = input(name);
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual([...fields.all].sort());
    expect([...(schema.required ?? [])].sort()).toEqual([...fields.required].sort());
  });

  it.each(definitions.map((d) => [d.def.name, d.def] as const))(
    '%s: every argument is described, unless an enum or its name says everything',
    (name, def) => {
      const undocumented: string[] = [];
      const walk = (node: Schema, path: string) => {
        for (const [key, child] of Object.entries(node.properties ?? {})) {
          const here = path ? `${path}.${key}` : key;
          if (!child.description?.trim() && !child.enum && child.const === undefined && !SELF_EXPLANATORY.has(here))
            undocumented.push(here);
          if (child.type === 'object') walk(child, here);
        }
      };
      walk(def.inputSchema as Schema, '');
      expect(undocumented, `${name}: arguments without a description`).toEqual([]);
    },
  );

  it('read-only tools: E1, E2, E5, E7, E10, E14', () => {
    for (const id of ['E1', 'E2', 'E5', 'E7', 'E10', 'E14']) {
      const def = byName(FIXED_TOOL_NAMES[id]!);
      expect(def.annotations, id).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    }
  });

  it('destructive tools: E11 (delete service) and E15 (migrate key deletes the global key)', () => {
    for (const id of ['E11', 'E15']) {
      expect(byName(FIXED_TOOL_NAMES[id]!).annotations, id).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
      });
    }
  });

  it('writes are not read-only: E4, E6, E8, E11, E13, E15', () => {
    for (const id of ['E4', 'E6', 'E8', 'E11', 'E13', 'E15']) {
      expect(byName(FIXED_TOOL_NAMES[id]!).annotations!.readOnlyHint, id).toBe(false);
    }
  });

  it('E8 starts a new scan each time: not idempotent; E6 adds a response: not idempotent', () => {
    expect(byName('datacatalog_run_scanner').annotations!.idempotentHint).toBe(false);
    expect(byName('apigateway_create_method_response').annotations!.idempotentHint).toBe(false);
  });

  it('every tool talks to an outside service: openWorldHint true', () => {
    for (const { def } of definitions) expect(def.annotations!.openWorldHint, def.name).toBe(true);
  });

  it('dryRun on exactly the tools that are not read-only; confirm on exactly the destructive ones', () => {
    for (const { def } of definitions) {
      const properties = Object.keys((def.inputSchema as Schema).properties ?? {});
      expect(properties.includes('dryRun'), def.name).toBe(def.annotations!.readOnlyHint === false);
      expect(properties.includes('confirm'), def.name).toBe(def.annotations!.destructiveHint === true);
    }
  });

  it('E11 and E15 warn in their descriptions', () => {
    expect(byName('recommendation_delete_service').description).toMatch(/delete/i);
    expect(byName('kms_migrate_key').description).toMatch(/delete/i);
  });
});

describe('spec constraints in the JSON Schema', () => {
  it('E12 ranges, with exclusive lower bounds for temperature, topP and repeatPenalty', () => {
    expect(prop('textgen_create_completion', 'temperature')).toMatchObject({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      default: 0.5,
    });
    expect(prop('textgen_create_completion', 'topP')).toMatchObject({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      default: 0.8,
    });
    expect(prop('textgen_create_completion', 'repeatPenalty')).toMatchObject({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 10,
      default: 5,
    });
    expect(prop('textgen_create_completion', 'maxTokens')).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 2048,
      default: 100,
    });
    expect(prop('textgen_create_completion', 'topK')).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 128,
      default: 0,
    });
    expect(prop('textgen_create_completion', 'includeAiFilters')).toMatchObject({ type: 'boolean', default: true });
    // Any model name is sent (the spec names LK-D2 as its sample's); it is a path segment, never empty.
    expect(prop('textgen_create_completion', 'model')).toEqual({
      type: 'string',
      minLength: 1,
      default: 'LK-D2',
      description: 'The spec names only LK-D2',
    });
  });

  it('E1 pages from 1 with defaults 1 and 10', () => {
    expect(prop('streaming_list_config_groups', 'pageNo')).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(prop('streaming_list_config_groups', 'pageSize')).toMatchObject({
      type: 'integer',
      minimum: 1,
      default: 10,
    });
    expect(prop('streaming_list_config_groups', 'kafkaVersionCode').type).toBe('integer');
  });

  it('E1/E2 region: KR, SGN, JPN', () => {
    expect(prop('streaming_list_config_groups', 'region').enum).toEqual(['KR', 'SGN', 'JPN']);
    expect(prop('streaming_list_server_images', 'region').enum).toEqual(['KR', 'SGN', 'JPN']);
  });

  it('E2 generationCode: G3 only, as a one-value enum (Gemini function declarations have no const)', () => {
    expect(prop('streaming_list_server_images', 'generationCode')).toEqual({
      description: 'Server generation',
      type: 'string',
      enum: ['G3'],
    });
  });

  it('E3 languages', () => {
    const languages = ['ko', 'en', 'ja', 'zh-CN', 'zh-TW', 'vi', 'th', 'id', 'fr', 'es', 'ru', 'de', 'it'];
    expect(prop('translation_translate_text', 'source').enum).toEqual(['auto', ...languages]);
    expect(prop('translation_translate_text', 'target').enum).toEqual(languages);
    expect(prop('translation_translate_text', 'honorific').type).toBe('boolean');
  });

  it('E4 job condition', () => {
    const condition = prop('dataflow_update_job_execution_options', 'jobCondition');
    expect(condition.required?.slice().sort()).toEqual(['logPath', 'nrn', 'scriptPath']);
    expect(condition.properties!.numWorker).toMatchObject({ type: 'integer', minimum: 2, maximum: 10 });
    expect(condition.properties!.timeout).toMatchObject({ type: 'integer', minimum: 1, maximum: 1440 });
  });

  it('E5 coordinate codes in any case, and default output json', () => {
    // A pattern of letter classes: what the server takes (any case), in a dialect every JSON Schema consumer reads.
    for (const name of ['sourcecrs', 'targetcrs']) {
      expect(prop('maps_reverse_geocode', name)).toMatchObject({
        type: 'string',
        pattern: '^([Ee][Pp][Ss][Gg]:(4326|3857)|[Ss][Vv][Cc]:2048)$',
        default: 'EPSG:4326',
      });
      expect(prop('maps_reverse_geocode', name).description).toMatch(/any case/);
    }
    expect(prop('maps_reverse_geocode', 'output')).toMatchObject({ enum: ['json', 'xml'], default: 'json' });
  });

  it('E6 method names, status code and description length', () => {
    expect(prop('apigateway_create_method_response', 'methodName').enum).toEqual([
      'ANY',
      'GET',
      'POST',
      'PUT',
      'DELETE',
      'PATCH',
      'OPTIONS',
      'HEAD',
    ]);
    expect(prop('apigateway_create_method_response', 'statusCode')).toMatchObject({
      type: 'integer',
      minimum: 100,
      maximum: 599,
    });
    expect(prop('apigateway_create_method_response', 'responseDescription')).toMatchObject({
      type: 'string',
      maxLength: 2000,
    });
  });

  it('E7 subscription code and product name length', () => {
    expect(prop('apigateway_list_products', 'subscriptionCode').enum).toEqual(['PUBLIC', 'PROTECTED']);
    expect(prop('apigateway_list_products', 'productName')).toMatchObject({ type: 'string', maxLength: 100 });
  });

  it('E9 lengths', () => {
    expect(prop('bigdata_check_app_name', 'accountId')).toMatchObject({ type: 'string', maxLength: 22 });
    expect(prop('bigdata_check_app_name', 'name')).toMatchObject({ type: 'string', minLength: 3, maxLength: 15 });
  });

  it('E10 dataset types and E15 target regions', () => {
    expect(prop('recommendation_get_default_schema', 'datasetType').enum).toEqual(['user', 'item', 'interaction']);
    expect(prop('kms_migrate_key', 'targetRegion').enum).toEqual(['KR', 'JPN']);
  });

  it('E14 declares the wrapped array as its output', () => {
    const output = byName('search_list_tokenizer_languages').outputSchema as Schema;
    expect(output.properties!.languages!.type).toBe('array');
    expect(output.required).toContain('languages');
  });
});

describe('off-spec values in lists (docs/tools.md, Answers)', () => {
  /** Every `items` schema of a JSON Schema, however deep. */
  const itemSchemas = (node: unknown, found: Schema[] = []): Schema[] => {
    if (Array.isArray(node)) for (const child of node) itemSchemas(child, found);
    else if (node && typeof node === 'object') {
      const schema = node as Schema;
      if (schema.items) found.push(schema.items);
      for (const child of Object.values(schema)) itemSchemas(child, found);
    }
    return found;
  };
  const validator = sharedLazyValidator();

  it.each(CATALOGUE.map((op) => [op.name] as const))(
    '%s: an item of every list of the output may be {"offSpec": {"": value}} and carry an offSpec of its own',
    (name) => {
      const items = itemSchemas(byName(name).outputSchema);
      for (const item of items) {
        const check = validator.getValidator(item as never);
        expect(check({ offSpec: { '': null } }).valid, JSON.stringify(item).slice(0, 200)).toBe(true);
        expect(check({ offSpec: { '': 42, x: 1 } }).valid).toBe(true);
      }
    },
  );
});
