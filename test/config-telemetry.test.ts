/** When OTEL_* variables turn telemetry on, what they configure (src/config/telemetry.ts, telemetry-options.ts). */
import { describe, expect, it } from 'vitest';
import { parseCommand, type Config } from '../src/config/index.js';
import { parseHeaders, signalUrl } from '../src/config/telemetry-options.js';

function config(env: Record<string, string>): Config {
  const parsed = parseCommand([], env);
  if (parsed.kind !== 'serve') throw new Error('expected a config');
  return parsed.config;
}

describe('telemetry options', () => {
  it('is off, with nothing to load, unless an endpoint is set', () => {
    expect(config({}).telemetry).toBeUndefined();
    expect(config({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).telemetry).toBeUndefined();
  });

  it('sends both signals under the general endpoint, with the defaults', () => {
    expect(config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).telemetry).toEqual({
      serviceName: 'svc-platform-mcp',
      protocol: 'http/protobuf',
      tracesUrl: 'http://collector:4318/v1/traces',
      metricsUrl: 'http://collector:4318/v1/metrics',
      tracesHeaders: {},
      metricsHeaders: {},
      sampler: { name: 'parentbased_always_on', ratio: 1 },
      metricIntervalMs: 60_000,
      toolArguments: false,
    });
  });

  it('takes a signal endpoint as it is, and turns on that signal alone', () => {
    const traces = config({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t.example/otlp/traces' }).telemetry;
    expect(traces?.tracesUrl).toBe('https://t.example/otlp/traces');
    expect(traces?.metricsUrl).toBeUndefined();
    const metrics = config({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://m:4318/v1/metrics' }).telemetry;
    expect(metrics?.tracesUrl).toBeUndefined();
    expect(metrics?.metricsUrl).toBe('http://m:4318/v1/metrics');
  });

  it('is off when OTEL_SDK_DISABLED is true, whatever the endpoints say', () => {
    expect(
      config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).telemetry,
    ).toBeUndefined();
    expect(
      config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'false' }).telemetry,
    ).toBeDefined();
  });

  it('makes every header value a secret of the redactor, and merges the signal headers', () => {
    const c = config({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20tok-abcdefgh1234,x-tenant=acme',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-traces-key=tr-key-998877',
    });
    expect(c.telemetry?.tracesHeaders).toEqual({
      authorization: 'Bearer tok-abcdefgh1234',
      'x-tenant': 'acme',
      'x-traces-key': 'tr-key-998877',
    });
    expect(c.telemetry?.metricsHeaders).toEqual({ authorization: 'Bearer tok-abcdefgh1234', 'x-tenant': 'acme' });
    expect(c.secrets).toEqual(
      expect.arrayContaining([
        'Authorization=Bearer%20tok-abcdefgh1234,x-tenant=acme',
        'Bearer tok-abcdefgh1234',
        'acme',
        'tr-key-998877',
      ]),
    );
  });

  it('refuses what it cannot use, naming the variable and never a header value', () => {
    const refused = (env: Record<string, string>) => () => config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', ...env });
    expect(refused({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://c:4317' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT must be/);
    expect(refused({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL must be one of/);
    expect(refused({ OTEL_EXPORTER_OTLP_HEADERS: 'no-equals-sign-secret' })).toThrow(/^(?!.*secret).*HEADERS must be/);
    expect(refused({ OTEL_TRACES_SAMPLER_ARG: '1.5' })).toThrow(/OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/);
    expect(refused({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(/OTEL_TRACES_SAMPLER must be one of/);
  });

  it('reads the sampler, the interval and the tool-arguments switch', () => {
    const t = config({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_METRIC_EXPORT_INTERVAL: '5000',
      SVC_TELEMETRY_TOOL_ARGUMENTS: 'true',
    }).telemetry!;
    expect(t.sampler).toEqual({ name: 'parentbased_traceidratio', ratio: 0.25 });
    expect(t.metricIntervalMs).toBe(5000);
    expect(t.toolArguments).toBe(true);
  });
});

describe('signalUrl and parseHeaders', () => {
  it('append the signal path to the general endpoint only', () => {
    expect(signalUrl(undefined, 'http://c:4318', 'v1/traces')).toBe('http://c:4318/v1/traces');
    expect(signalUrl('http://own', 'http://c:4318', 'v1/traces')).toBe('http://own');
    expect(signalUrl(undefined, undefined, 'v1/traces')).toBeUndefined();
  });

  it('decode W3C-baggage-style pairs and refuse malformed ones', () => {
    expect(parseHeaders(' a=1 , B=x%3Dy ,')).toEqual({ a: '1', b: 'x=y' });
    expect(parseHeaders('=1')).toBeUndefined();
    expect(parseHeaders('bad name=1')).toBeUndefined();
    expect(parseHeaders(undefined)).toEqual({});
  });
});
