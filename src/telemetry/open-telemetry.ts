import { metrics, trace, type Meter, type Tracer } from '@opentelemetry/api';
import { setGlobalErrorHandler } from '@opentelemetry/core';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { Redactor } from '../util/redact.js';
import { SERVER_NAME, SERVER_VERSION } from '../version.js';
import { CallSpans } from './call-spans.js';
import { reportingMetricExporter, reportingSpanExporter, saidOnce } from './export-failures.js';
import { Instruments } from './instruments.js';
import { samplerOf } from './sampler.js';
import type { Telemetry } from './telemetry.js';
import { TracedTransport } from './traced-transport.js';
import { envName, type TelemetryOptions } from '../config/index.js';

export interface TelemetryDeps {
  /** One line to stderr, through the egress redactor. */
  log(line: string): void;
  /** The egress redactor: every recorded value a client chose passes it (and the tool arguments, when recorded). */
  redactor: Redactor;
}

/**
 * The OpenTelemetry implementation of the server's Telemetry, loaded by main.ts only when the OTEL_* variables ask for
 * it. The providers are the server's own, not registered as the process's global ones: nothing else in the process
 * (undici, the SDK) picks them up, so the only spans are the ones this server makes, and the OTLP exports (Node's
 * http, not the upstream's undici) are never traced themselves.
 */
export function startTelemetry(options: TelemetryOptions, deps: TelemetryDeps): Telemetry {
  const report = saidOnce(deps.log);
  // The SDK's own failures (an export that could not be sent, a malformed attribute) go to the same one line.
  setGlobalErrorHandler(report);
  const resource = resourceFromAttributes({ 'service.name': options.serviceName, 'service.version': SERVER_VERSION });
  const json = options.protocol === 'http/json';

  let tracerProvider: TracerProvider | undefined;
  let tracer: Tracer = trace.getTracer(SERVER_NAME);
  if (options.tracesUrl) {
    const settings = { url: options.tracesUrl, headers: options.tracesHeaders };
    const exporter = json ? new JsonTraceExporter(settings) : new ProtoTraceExporter(settings);
    tracerProvider = new TracerProvider({
      resource,
      sampler: samplerOf(options.sampler),
      spanProcessors: [new BatchSpanProcessor({ exporter: reportingSpanExporter(exporter, report) })],
    });
    tracer = tracerProvider.getTracer(SERVER_NAME, SERVER_VERSION);
  }

  let meterProvider: MeterProvider | undefined;
  let meter: Meter = metrics.getMeter(SERVER_NAME);
  if (options.metricsUrl) {
    const settings = { url: options.metricsUrl, headers: options.metricsHeaders };
    const exporter = json ? new JsonMetricExporter(settings) : new ProtoMetricExporter(settings);
    meterProvider = new MeterProvider({
      resource,
      readers: [
        new PeriodicExportingMetricReader({
          exporter: reportingMetricExporter(exporter, report),
          exportIntervalMillis: options.metricIntervalMs,
          exportTimeoutMillis: Math.min(options.metricIntervalMs, 30_000),
        }),
      ],
    });
    meter = meterProvider.getMeter(SERVER_NAME, SERVER_VERSION);
  }

  const instruments = new Instruments(meter);
  const calls = new CallSpans(tracer, instruments);
  const argumentsOf = options.toolArguments
    ? (args: unknown) => deps.redactor.redact(JSON.stringify(args ?? {}))
    : undefined;
  return {
    traced: (transport, network, known) =>
      new TracedTransport(transport, {
        calls,
        instruments,
        network,
        known,
        redact: (text) => deps.redactor.redact(text),
        argumentsOf,
      }),
    observeCalls: (places) => instruments.observeCalls(places),
    admission: () => calls.admission(),
    confirmation: (channel) => calls.confirmation(channel),
    attempt: (request) => calls.attempt(request),
    callEnded: (outcome, profile) => calls.callEnded(outcome, profile),
    shutdown: async (withinMs) => {
      const flushed = Promise.allSettled([tracerProvider?.shutdown(), meterProvider?.shutdown()]);
      if (!(await settledWithin(flushed, withinMs)))
        report(
          new Error(`the last export was not taken within ${withinMs} ms (${envName('SVC_MCP_SHUTDOWN_GRACE_MS')})`),
        );
    },
  };
}

/** Whether the promise settled within `ms`: an unreachable collector must not hold the exit. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms).unref()));
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
