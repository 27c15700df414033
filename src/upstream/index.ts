// The platform client: builds, signs, sends and interprets the requests of the fifteen operations. It knows the
// catalogue and nothing of MCP or of the call pipeline above it.
export { CREDENTIAL_HEADERS, HEADER, secretsOf, type AppKeys, type GatewayKeys, type StudioKeys } from './auth.js';
export { CallFailure, ServerStopping, abortedFailure, type Delivery, type FailureCode } from './failure.js';
export { createUpstream, send, upstreamOf, type OutgoingRequest, type RawResponse, type Upstream } from './http.js';
export { prepareRequest, type PreparedRequest } from './request.js';
export { interpretResponse } from './response.js';
export { signRequest, type SigningClock } from './sign.js';
