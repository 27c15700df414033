/** The variables whose values are secrets, written out here for the tests (src/config/env-variables.ts marks them). */
export const SECRET_VARIABLES = [
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_METRICS_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'SVC_CLIENT_SECRET',
  'SVC_MAPS_CLIENT_SECRET',
  'SVC_MCP_AUTH_TOKEN',
  'SVC_MCP_STATE_KEY',
  'SVC_SECRET_KEY',
  'SVC_STUDIO_API_KEY',
  'SVC_STUDIO_GATEWAY_KEY',
  'SVC_TRANSLATION_CLIENT_SECRET',
] as const;
