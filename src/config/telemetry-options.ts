/** What the OTEL_* variables ask for, read and checked by telemetry.ts; undefined in Config when telemetry is off. */
export interface TelemetryOptions {
  serviceName: string;
  protocol: 'http/protobuf' | 'http/json';
  /** Where traces go; none: no traces. */
  tracesUrl?: string;
  /** Where metrics go; none: no metrics. */
  metricsUrl?: string;
  tracesHeaders: Record<string, string>;
  metricsHeaders: Record<string, string>;
  sampler: { name: string; ratio: number };
  metricIntervalMs: number;
  /** SVC_TELEMETRY_TOOL_ARGUMENTS: each tool call's arguments on its span, redacted. */
  toolArguments: boolean;
}

/**
 * The URL a signal's exports go to: its own endpoint as it is, else the general endpoint with the signal's path (as
 * the OpenTelemetry specification says: `http://collector:4318` -> `http://collector:4318/v1/traces`).
 */
export function signalUrl(own: string | undefined, general: string | undefined, path: string): string | undefined {
  if (own !== undefined) return own;
  if (general === undefined) return undefined;
  return `${general.replace(/\/+$/, '')}/${path}`;
}

/**
 * `name=value` pairs separated by commas, each part percent-decoded (W3C Baggage's format, which the OpenTelemetry
 * specification uses for OTEL_EXPORTER_OTLP_HEADERS). Undefined for a malformed list: the caller names the variable.
 */
export function parseHeaders(text: string | undefined): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  if (text === undefined) return headers;
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    if (at <= 0) return undefined;
    try {
      const name = decodeURIComponent(pair.slice(0, at).trim());
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return undefined;
      headers[name.toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return undefined;
    }
  }
  return headers;
}
