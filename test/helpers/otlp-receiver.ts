import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OTLP/HTTP receiver on loopback, as a collector would be: it keeps every body POSTed to /v1/traces and
 * /v1/metrics and answers 200. Bodies in http/json are decoded here (the OTLP JSON mapping); http/protobuf bodies
 * are kept as bytes (a test reads what it needs from them itself).
 */
export interface OtlpReceiver {
  /** http://127.0.0.1:PORT: the OTEL_EXPORTER_OTLP_ENDPOINT of a server under test. */
  readonly url: string;
  /** Every export received, in order. */
  readonly exports: OtlpExport[];
  /** The spans of every JSON trace export. */
  spans(): ExportedSpan[];
  /** The data points of every JSON metric export, by metric. */
  points(name: string): MetricPoint[];
  /** Every byte received, headers and bodies, as one text (for a scan for what must never leave). */
  everything(): string;
  close(): Promise<void>;
}

interface OtlpExport {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface ExportedSpan {
  name: string;
  /** 1 internal, 2 server, 3 client (OTLP's SpanKind). */
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
  resource: Record<string, unknown>;
}

interface MetricPoint {
  unit: string;
  kind: 'histogram' | 'sum' | 'gauge';
  attributes: Record<string, unknown>;
  /** The count of a histogram's point, the value of a sum's or a gauge's. */
  value: number;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: OtlpExport[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      exports.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      const json = String(req.headers['content-type']).includes('json');
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const jsonBodies = (path: string) =>
    exports
      .filter((e) => e.path === path && String(e.headers['content-type']).includes('json'))
      .map((e) => JSON.parse(e.body.toString('utf8')) as Record<string, unknown[]>);
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    spans: () =>
      jsonBodies('/v1/traces').flatMap((body) =>
        (body.resourceSpans as ResourceSpans[]).flatMap((rs) =>
          rs.scopeSpans.flatMap((ss) =>
            ss.spans.map((span) => ({
              name: span.name,
              kind: span.kind,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              attributes: attributesOf(span.attributes),
              status: span.status ?? {},
              resource: attributesOf(rs.resource?.attributes),
            })),
          ),
        ),
      ),
    points: (name) =>
      jsonBodies('/v1/metrics').flatMap((body) =>
        (body.resourceMetrics as ResourceMetrics[]).flatMap((rm) =>
          rm.scopeMetrics.flatMap((sm) => sm.metrics.filter((m) => m.name === name).flatMap(pointsOf)),
        ),
      ),
    everything: () =>
      exports.map((e) => `${e.path}\n${JSON.stringify(e.headers)}\n${e.body.toString('latin1')}`).join('\n'),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}
interface ResourceSpans {
  resource?: { attributes?: KeyValue[] };
  scopeSpans: {
    spans: {
      name: string;
      kind: number;
      traceId: string;
      spanId: string;
      parentSpanId?: string;
      attributes?: KeyValue[];
      status?: { code?: number; message?: string };
    }[];
  }[];
}
interface Metric {
  name: string;
  unit: string;
  histogram?: { dataPoints: { attributes?: KeyValue[]; count: number | string }[] };
  sum?: { dataPoints: { attributes?: KeyValue[]; asInt?: number | string; asDouble?: number }[] };
  gauge?: { dataPoints: { attributes?: KeyValue[]; asInt?: number | string; asDouble?: number }[] };
}
interface ResourceMetrics {
  scopeMetrics: { metrics: Metric[] }[];
}

function pointsOf(metric: Metric): MetricPoint[] {
  const unit = metric.unit;
  if (metric.histogram) {
    return metric.histogram.dataPoints.map((p) => ({
      unit,
      kind: 'histogram',
      attributes: attributesOf(p.attributes),
      value: Number(p.count),
    }));
  }
  const kind = metric.sum ? 'sum' : 'gauge';
  return (metric.sum ?? metric.gauge)!.dataPoints.map((p) => ({
    unit,
    kind,
    attributes: attributesOf(p.attributes),
    value: Number(p.asInt ?? p.asDouble),
  }));
}

/** OTLP JSON's key-value list as a plain object (intValue is a string in JSON: made a number). */
function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) {
    if ('stringValue' in value) out[key] = value.stringValue;
    else if ('intValue' in value) out[key] = Number(value.intValue);
    else if ('boolValue' in value) out[key] = value.boolValue;
    else if ('doubleValue' in value) out[key] = value.doubleValue;
    else out[key] = value;
  }
  return out;
}
