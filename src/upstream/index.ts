// The platform client: builds the requests of the fifteen operations, then exchanges each (signs, sends, interprets,
// retries). It knows the catalogue and nothing of MCP or of the call pipeline above it.
export { CREDENTIAL_HEADERS, HEADER, secretsOf, type AppKeys, type GatewayKeys, type StudioKeys } from './auth.js';
export {
  exchange,
  wouldSend,
  type Deadline,
  type ExchangeContext,
  type ExchangeDeps,
  type Note,
  type WireRecord,
} from './exchange.js';
export { createUpstream, upstreamOf, type OutgoingRequest, type Upstream } from './http.js';
export { prepareRequest, type PreparedRequest } from './request.js';
export type { ClientSettings, ProxySettings, SettingWords } from './settings.js';
