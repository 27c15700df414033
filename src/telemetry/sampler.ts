import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import type { TelemetryOptions } from '../config/index.js';

/**
 * OTEL_TRACES_SAMPLER and its argument, as the OpenTelemetry specification defines them (the SDK itself no longer
 * reads the environment). `parentbased_*`: a request that carries a trace context is kept or not as the client decided.
 */
export function samplerOf({ name, ratio }: TelemetryOptions['sampler']): Sampler {
  const root = name.endsWith('always_off')
    ? new AlwaysOffSampler()
    : name.endsWith('traceidratio')
      ? new TraceIdRatioBasedSampler(ratio)
      : new AlwaysOnSampler();
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}
