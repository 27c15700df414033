import type { Attributes, Counter, Histogram, Meter } from '@opentelemetry/api';
import { DURATION_BUCKETS, HTTP_BUCKETS, METRIC } from './names.js';
import { envName } from '../config/index.js';

/** Every metric this server exports (docs/telemetry.md), made once from the meter. */
export class Instruments {
  readonly operationDuration: Histogram;
  readonly sessionDuration: Histogram;
  readonly clientRequestDuration: Histogram;
  readonly callsRefused: Counter;
  readonly confirmationsAsked: Counter;
  readonly confirmationsAnswered: Counter;
  #places: { readonly running: number; readonly waiting: number } | undefined;

  constructor(meter: Meter) {
    this.operationDuration = meter.createHistogram(METRIC.operationDuration, {
      unit: 's',
      description: 'MCP request duration, from its receipt until its response is sent',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.sessionDuration = meter.createHistogram(METRIC.sessionDuration, {
      unit: 's',
      description: 'MCP session duration (2025 sessions: from initialize to the end of the session)',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.clientRequestDuration = meter.createHistogram(METRIC.clientRequestDuration, {
      unit: 's',
      description: 'Duration of each upstream HTTP attempt, until its answer is read',
      advice: { explicitBucketBoundaries: HTTP_BUCKETS },
    });
    this.callsRefused = meter.createCounter(METRIC.callsRefused, {
      unit: '{call}',
      description: 'Tool calls refused for want of a place ([busy])',
    });
    this.confirmationsAsked = meter.createCounter(METRIC.confirmationsAsked, {
      unit: '{confirmation}',
      description: "Destructive calls that asked for their user's confirmation",
    });
    this.confirmationsAnswered = meter.createCounter(METRIC.confirmationsAnswered, {
      unit: '{confirmation}',
      description: 'Confirmations answered, by answer (confirmed or refused)',
    });
    meter
      .createObservableGauge(METRIC.callsRunning, {
        unit: '{call}',
        description: `Tool calls holding a place (${envName('SVC_MAX_CONCURRENT_CALLS')})`,
      })
      .addCallback((result) => {
        if (this.#places) result.observe(this.#places.running);
      });
    meter
      .createObservableGauge(METRIC.callsWaiting, {
        unit: '{call}',
        description: `Tool calls waiting for a place (${envName('SVC_MAX_QUEUED_CALLS')})`,
      })
      .addCallback((result) => {
        if (this.#places) result.observe(this.#places.waiting);
      });
  }

  /** The places whose use the two gauges read at each collection. */
  observeCalls(places: { readonly running: number; readonly waiting: number }): void {
    this.#places = places;
  }
}

/** Attributes without the ones left undefined. */
export function defined(attributes: Record<string, string | number | boolean | undefined>): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}
