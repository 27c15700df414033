/** The table of environment variables: names, secrets, defaults and the helpers over them. */
import { describe, expect, it } from 'vitest';
import {
  ENV_GROUPS,
  ENV_VARIABLES,
  KEY_PAIRS,
  envDefault,
  inWords,
  isSecret,
  namesOf,
  pairedWith,
  placeholderOf,
  readableDefault,
  serviceUrlVariable,
  variableNamed,
  type EnvVariable,
} from '../src/config/env-variables.js';
import { SECRET_VARIABLES } from './helpers/secret-variables.js';

const rows: readonly EnvVariable[] = ENV_VARIABLES;

describe('the table', () => {
  it('marks exactly the credentials secret', () => {
    expect(
      rows
        .filter((v) => v.secret)
        .map((v) => v.name)
        .sort(),
    ).toEqual([...SECRET_VARIABLES].sort());
  });

  it('holds the defaults the configuration uses', () => {
    expect(envDefault('SVC_STREAMING_REGION')).toBe('KR');
    expect(envDefault('SVC_TIMEOUT_MS')).toBe('30000');
    expect(envDefault('SVC_MCP_MAX_SESSIONS')).toBe('100');
    expect(envDefault('SVC_MCP_MAX_SESSIONS_PER_CLIENT')).toBe('10');
    expect(envDefault('SVC_MCP_SESSION_IDLE_MS')).toBe('600000');
    expect(envDefault('SVC_MCP_MAX_BODY_BYTES')).toBe('4194304');
    expect(envDefault('SVC_MCP_REQUEST_TIMEOUT_MS')).toBe('30000');
    expect(envDefault('SVC_MCP_OAUTH_TIMEOUT_MS')).toBe('5000');
    expect(envDefault('SVC_MCP_MAX_CONNECTIONS')).toBe('1000');
    expect(envDefault('SVC_MCP_MAX_UNREAD_BYTES')).toBe('1048576');
    expect(envDefault('SVC_MCP_SHUTDOWN_GRACE_MS')).toBe('10000');
    expect(envDefault('SVC_READ_ONLY')).toBe('false');
    expect(envDefault('SVC_CONFIRM_DESTRUCTIVE')).toBe('true');
    expect(envDefault('SVC_MAX_CONCURRENT_CALLS')).toBe('16');
    expect(envDefault('SVC_MAX_QUEUED_CALLS')).toBe('1024');
    expect(envDefault('SVC_MAX_RESPONSE_BYTES')).toBe('4194304');
    expect(envDefault('SVC_MAX_RESULT_BYTES')).toBe('100000');
    expect(envDefault('SVC_WORKFLOW_TIMEOUT_MS')).toBe('180000');
    expect(envDefault('OTEL_EXPORTER_OTLP_PROTOCOL')).toBe('http/protobuf');
    expect(envDefault('OTEL_SERVICE_NAME')).toBe('svc-platform-mcp');
    expect(envDefault('OTEL_SDK_DISABLED')).toBe('false');
    expect(envDefault('OTEL_TRACES_SAMPLER')).toBe('parentbased_always_on');
    expect(envDefault('OTEL_TRACES_SAMPLER_ARG')).toBe('1');
    expect(envDefault('OTEL_METRIC_EXPORT_INTERVAL')).toBe('60000');
    expect(envDefault('SVC_TELEMETRY_TOOL_ARGUMENTS')).toBe('false');
    expect(envDefault('SVC_APP_VIEWS')).toBe('true');
    expect(rows.filter((v) => v.default !== undefined)).toHaveLength(26);
  });

  it('names no variable twice, counting the names a pattern stands for and the aliases', () => {
    const names = rows.flatMap(namesOf);
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives every variable a known group and a one-line meaning', () => {
    for (const v of rows) {
      expect(Object.keys(ENV_GROUPS), v.name).toContain(v.group);
      expect(v.meaning, v.name).toMatch(/^[^\n]{10,90}$/);
    }
  });
});

describe('key pairs', () => {
  it('pair the ID or access key with its secret, and the two text-generation keys', () => {
    expect(Object.values(KEY_PAIRS)).toEqual([
      ['SVC_ACCESS_KEY', 'SVC_SECRET_KEY'],
      ['SVC_CLIENT_ID', 'SVC_CLIENT_SECRET'],
      ['SVC_TRANSLATION_CLIENT_ID', 'SVC_TRANSLATION_CLIENT_SECRET'],
      ['SVC_MAPS_CLIENT_ID', 'SVC_MAPS_CLIENT_SECRET'],
      ['SVC_STUDIO_API_KEY', 'SVC_STUDIO_GATEWAY_KEY'],
    ]);
  });

  it('name the other key of a pair either way round, and nothing for a name in none', () => {
    expect(pairedWith('SVC_SECRET_KEY')).toBe('SVC_ACCESS_KEY');
    expect(pairedWith('SVC_MAPS_CLIENT_ID')).toBe('SVC_MAPS_CLIENT_SECRET');
    expect(pairedWith('SVC_GATEWAY_URL')).toBeUndefined();
  });

  it('every second key of a pair is a secret', () => {
    for (const [, second] of Object.values(KEY_PAIRS)) expect(isSecret(second), second).toBe(true);
    expect(isSecret('SVC_ACCESS_KEY')).toBe(false);
    expect(isSecret('SVC_NOPE')).toBe(false);
  });
});

describe('names', () => {
  it('SVC_<SERVICE>_URL stands for one variable per service', () => {
    const pattern = variableNamed('SVC_KMS_URL')!;
    expect(pattern.name).toBe('SVC_<SERVICE>_URL');
    expect(placeholderOf(pattern)).toBe('SERVICE');
    expect(namesOf(pattern)).toHaveLength(11);
    expect(namesOf(pattern)).toEqual(expect.arrayContaining(['SVC_STREAMING_URL', 'SVC_TEXTGEN_URL', 'SVC_KMS_URL']));
    expect(serviceUrlVariable('datacatalog')).toBe('SVC_DATACATALOG_URL');
    expect(namesOf(pattern)).toContain(serviceUrlVariable('datacatalog'));
  });

  it('the lower-case proxy variables belong to the upper-case ones', () => {
    expect(variableNamed('no_proxy')?.name).toBe('NO_PROXY');
    expect(namesOf(variableNamed('HTTPS_PROXY')!)).toEqual(['HTTPS_PROXY', 'https_proxy']);
  });

  it('a name that is not in the table has no row', () => {
    expect(variableNamed('SVC_<SERVICE>_URL')).toBeUndefined();
    expect(variableNamed('SVC_NOPE_URL')).toBeUndefined();
    expect(variableNamed('svc_gateway_url')).toBeUndefined();
  });
});

describe('readableDefault', () => {
  const variable = (value: string, unit?: 'ms' | 'bytes'): EnvVariable => ({
    name: 'X',
    group: 'service',
    meaning: 'test',
    default: value,
    unit,
  });

  it.each([
    ['1800000', 'ms', '30 min'],
    ['30000', 'ms', '30 s'],
    ['1500', 'ms', undefined],
    ['4194304', 'bytes', '4 MiB'],
    ['2048', 'bytes', '2 KiB'],
    ['1000', 'bytes', undefined],
    ['0', 'ms', undefined],
    ['100', undefined, undefined],
    ['KR', undefined, undefined],
  ] as const)('%s %s -> %s', (value, unit, expected) => {
    expect(readableDefault(variable(value, unit))).toBe(expected);
  });
});

describe('inWords', () => {
  it.each([
    [86_400_000, 'ms', '24 h'],
    [600_000, 'ms', '10 min'],
    [1_073_741_824, 'bytes', '1 GiB'],
    [65_536, 'bytes', '64 KiB'],
    [1000, undefined, undefined],
  ] as const)('%s %s -> %s', (n, unit, expected) => {
    expect(inWords(n, unit)).toBe(expected);
  });
});
