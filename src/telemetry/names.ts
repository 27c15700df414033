/**
 * The names this server's telemetry uses, in one place: the OpenTelemetry semantic conventions' (MCP, GenAI, HTTP,
 * JSON-RPC, network), and its own under the `svc_platform_mcp.` prefix. docs/telemetry.md lists each.
 */
const OWN = 'svc_platform_mcp';

export const SPAN = {
  admission: `${OWN}.admission`,
  confirmation: `${OWN}.confirmation`,
} as const;

export const METRIC = {
  operationDuration: 'mcp.server.operation.duration',
  sessionDuration: 'mcp.server.session.duration',
  clientRequestDuration: 'http.client.request.duration',
  callsRunning: `${OWN}.calls.running`,
  callsWaiting: `${OWN}.calls.waiting`,
  callsRefused: `${OWN}.calls.refused`,
  confirmationsAsked: `${OWN}.confirmations.asked`,
  confirmationsAnswered: `${OWN}.confirmations.answered`,
} as const;

export const ATTR = {
  mcpMethod: 'mcp.method.name',
  mcpProtocolVersion: 'mcp.protocol.version',
  mcpSessionId: 'mcp.session.id',
  mcpResourceUri: 'mcp.resource.uri',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  toolArguments: 'gen_ai.tool.call.arguments',
  requestId: 'jsonrpc.request.id',
  rpcStatus: 'rpc.response.status_code',
  errorType: 'error.type',
  networkTransport: 'network.transport',
  networkProtocol: 'network.protocol.name',
  httpMethod: 'http.request.method',
  httpStatus: 'http.response.status_code',
  resendCount: 'http.request.resend_count',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  urlScheme: 'url.scheme',
  urlPath: 'url.path',
  urlTemplate: 'url.template',
  callOutcome: `${OWN}.call.outcome`,
  /** The credential profile whose keys the call used (SVC_PROFILES_FILE): a name, never a key. */
  callProfile: `${OWN}.call.profile`,
  confirmationChannel: `${OWN}.confirmation.channel`,
  confirmationAnswer: `${OWN}.confirmation.answer`,
  refusal: `${OWN}.refusal`,
} as const;

/**
 * What an attribute or span name says in place of a value this server does not know (a tool, prompt, method,
 * resource URI or protocol version a client made up): the OpenTelemetry conventions' word for a value outside the
 * known set. Client-chosen values of any length would otherwise each make an attribute set kept for the life of the
 * process.
 */
export const OTHER = '_OTHER';

/** The longest value recorded as it is: a longer request id is OTHER, and no recorded value is longer. */
export const MAX_ATTRIBUTE_CHARS = 128;

/** The methods of MCP a client may send (both eras), recorded by name; any other is OTHER. */
export const MCP_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'logging/setLevel',
  'tasks/get',
  'tasks/list',
  'tasks/result',
  'tasks/cancel',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
]);

/** `error.type` of a tool result with `isError` (the MCP conventions' word). */
export const TOOL_ERROR = 'tool_error';

/** The MCP conventions' buckets for operation and session durations, in seconds. */
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The HTTP conventions' buckets for client request durations, in seconds. */
export const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
