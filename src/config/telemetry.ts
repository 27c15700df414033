import { envDefault, envName, envRange, type EnvName } from './env-variables.js';
import { parseHeaders, signalUrl, type TelemetryOptions } from './telemetry-options.js';
import { ConfigError, boolean, checkedUrl, integer, oneOf, type Value } from './values.js';

/**
 * Telemetry is on when an OTLP endpoint is set (the general one or a signal's) and OTEL_SDK_DISABLED is not true.
 * Each header value is a secret of its own too (a token may travel apart from its `name=`).
 */
export function withTelemetry(value: Value, secrets: Set<string>): { telemetry?: TelemetryOptions } {
  const yes = (name: 'OTEL_SDK_DISABLED' | 'SVC_TELEMETRY_TOOL_ARGUMENTS') =>
    boolean(value(name) ?? envDefault(name), name);
  const general = optionalUrl(value, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const tracesUrl = signalUrl(optionalUrl(value, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'), general, 'v1/traces');
  const metricsUrl = signalUrl(optionalUrl(value, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'), general, 'v1/metrics');
  const headers = (name: EnvName) => {
    const parsed = parseHeaders(value(name));
    if (!parsed) throw new ConfigError(`${name} must be name=value pairs separated by commas (value not shown)`);
    for (const secret of Object.values(parsed)) if (secret) secrets.add(secret);
    return parsed;
  };
  const common = headers('OTEL_EXPORTER_OTLP_HEADERS');
  const tracesHeaders = { ...common, ...headers('OTEL_EXPORTER_OTLP_TRACES_HEADERS') };
  const metricsHeaders = { ...common, ...headers('OTEL_EXPORTER_OTLP_METRICS_HEADERS') };
  const ratioName = envName('OTEL_TRACES_SAMPLER_ARG');
  const ratioText = value(ratioName) ?? envDefault(ratioName);
  const ratio = Number(ratioText);
  if (!/^\d*\.?\d+$/.test(ratioText) || !(ratio >= 0 && ratio <= 1)) {
    throw new ConfigError(`${ratioName} must be a number from 0 to 1, got "${ratioText}"`);
  }
  const options: TelemetryOptions = {
    serviceName: value('OTEL_SERVICE_NAME') ?? envDefault('OTEL_SERVICE_NAME'),
    protocol: oneOf(
      'OTEL_EXPORTER_OTLP_PROTOCOL',
      value('OTEL_EXPORTER_OTLP_PROTOCOL') ?? envDefault('OTEL_EXPORTER_OTLP_PROTOCOL'),
    ) as TelemetryOptions['protocol'],
    ...(tracesUrl ? { tracesUrl } : {}),
    ...(metricsUrl ? { metricsUrl } : {}),
    tracesHeaders,
    metricsHeaders,
    sampler: {
      name: oneOf('OTEL_TRACES_SAMPLER', value('OTEL_TRACES_SAMPLER') ?? envDefault('OTEL_TRACES_SAMPLER')),
      ratio,
    },
    metricIntervalMs: integer(
      value('OTEL_METRIC_EXPORT_INTERVAL') ?? envDefault('OTEL_METRIC_EXPORT_INTERVAL'),
      'OTEL_METRIC_EXPORT_INTERVAL',
      ...envRange('OTEL_METRIC_EXPORT_INTERVAL'),
    ),
    toolArguments: yes('SVC_TELEMETRY_TOOL_ARGUMENTS'),
  };
  if (yes('OTEL_SDK_DISABLED') || (!tracesUrl && !metricsUrl)) return {};
  return { telemetry: options };
}

/** An http(s) URL, or unset. */
function optionalUrl(value: Value, name: EnvName): string | undefined {
  const text = value(name);
  if (text === undefined) return undefined;
  checkedUrl(name, text, { notHttp: 'must be an http(s) URL: this server exports OTLP over HTTP' });
  return text;
}
