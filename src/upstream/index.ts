// The platform client: builds the requests of the fifteen operations, then exchanges each (signs, sends, interprets,
// retries). It knows the catalogue and nothing of MCP or of the call pipeline above it.
export { CREDENTIAL_HEADERS, HEADER, signatureV2, type GatewayKeys } from './auth.js';
export { exchange, wouldSend, type Deadline, type ExchangeDeps, type Note, type WireRecord } from './exchange.js';
export { createUpstream, type OutgoingRequest, type Upstream } from './http.js';
export { prepareRequest, type PreparedRequest } from './request.js';
export type { ClientSettings } from './settings.js';
