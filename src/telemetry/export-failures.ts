import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/**
 * A collector that cannot be reached is said once on stderr (through the redactor, like every line), not at every
 * export: the calls go on, and a log of the same line every few seconds would bury the rest.
 */
export function saidOnce(log: (line: string) => void): (error: unknown) => void {
  let said = false;
  return (error) => {
    if (said) return;
    said = true;
    const why = error instanceof Error ? error.message : String(error);
    log(
      `svc-platform-mcp: telemetry: an export to the OpenTelemetry collector failed (${why.slice(0, 300)}); ` +
        'calls are not affected, and further export failures are not logged',
    );
  };
}

/** The exporter, telling `report` of each failed export. */
export function reportingSpanExporter(inner: SpanExporter, report: (error: unknown) => void): SpanExporter {
  return {
    export: (spans: ReadableSpan[], done: (result: ExportResult) => void) =>
      inner.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) report(result.error ?? 'export failed');
        done(result);
      }),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

/** The exporter, telling `report` of each failed export; its choices of temporality and aggregation are kept. */
export function reportingMetricExporter(
  inner: PushMetricExporter,
  report: (error: unknown) => void,
): PushMetricExporter {
  return {
    export: (batch: ResourceMetrics, done: (result: ExportResult) => void) =>
      inner.export(batch, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) report(result.error ?? 'export failed');
        done(result);
      }),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush(),
    ...(inner.selectAggregationTemporality
      ? { selectAggregationTemporality: (type) => inner.selectAggregationTemporality!(type) }
      : {}),
    ...(inner.selectAggregation ? { selectAggregation: (type) => inner.selectAggregation!(type) } : {}),
  };
}
