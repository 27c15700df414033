import { SERVICES, type ServiceId } from '../catalogue/types.js';
import { DEFAULT_STREAMING_REGION, STREAMING_REGIONS } from '../catalogue/fields.js';

/** One row of ENV_VARIABLES. */
export interface EnvVariable {
  /** The name, or a pattern with one `<PLACEHOLDER>` standing for each of `values`. */
  readonly name: string;
  /** What the placeholder of a pattern stands for, e.g. each SERVICE of SVC_<SERVICE>_URL. */
  readonly values?: readonly string[];
  /** The values the variable accepts, when it is one of a few. */
  readonly choices?: readonly string[];
  /** The values a comma-separated list may hold. */
  readonly listOf?: readonly string[];
  /** Also read under this name when `name` is unset (the lower-case proxy variables). */
  readonly alias?: string;
  readonly group: EnvGroup;
  /** One line, plain text: it is printed by --help as well as written into the README. */
  readonly meaning: string;
  /** More for the README only (Markdown). */
  readonly details?: string;
  /** The value used when the variable is unset, written as it would be in the environment. */
  readonly default?: string;
  /** A whole number from the first to the second, both included. */
  readonly range?: readonly [min: number, max: number];
  /** Lets the documentation say a default of 1800000 is 30 min. */
  readonly unit?: 'ms' | 'bytes';
  /** A credential: never logged or returned, and `sensitive` in manifest.json. */
  readonly secret?: true;
  /**
   * May be a key of a credential profile (SVC_PROFILES_FILE): `platform` for what reaches the platform (URLs, key
   * pairs, Region), `narrowing` for what can only take tools away.
   */
  readonly profile?: 'platform' | 'narrowing';
  /** A setting of the MCP Bundle: its entry in manifest.json's user_config, which maps it to this variable. */
  readonly bundle?: BundleSetting;
}

/** What the MCP Bundle shows for a variable; the rest of its user_config entry comes from the row. */
export interface BundleSetting {
  readonly key: string;
  readonly title: string;
  /** Plain text; the variable's name and its values are added to it. */
  readonly description: string;
  /** The bundle cannot be installed without it (otherwise it defaults, blank for text). */
  readonly required?: true;
}

/** The groups in the order the documentation shows them, with their headings. */
export const ENV_GROUPS = {
  service: 'Services: endpoints, credentials, behaviour',
  safety: 'Safety: which tools are on, confirmation of destructive calls',
  limits: 'Limits: calls at once, answer and result sizes, the workflow deadline, the shutdown grace period',
  http: 'HTTP transport (only with --http)',
  proxy: 'Outbound proxy for upstream calls',
  telemetry: 'Telemetry: OpenTelemetry traces and metrics, off unless an OTLP endpoint is set',
} as const;
type EnvGroup = keyof typeof ENV_GROUPS;

const MiB = 1024 * 1024;

/**
 * Every environment variable the server reads, in one table: its name, meaning, default, bounds or values, and
 * whether it is a secret. parse.ts parses by it (and cannot read a name that is not here; a test checks that it
 * reads every one); `--help`, the README's tables, manifest.json and server.json (`npm run generate`), the
 * credential errors and the redactor's secrets are made from it. Adding a variable is adding a row.
 */
export const ENV_VARIABLES = [
  {
    name: 'SVC_GATEWAY_URL',
    profile: 'platform',
    group: 'service',
    meaning: 'origin used for every service that has no URL of its own',
    bundle: {
      key: 'gateway_url',
      title: 'Gateway URL',
      description: 'Origin used for every service, e.g. https://gateway.example.com',
      required: true,
    },
  },
  {
    name: 'SVC_<SERVICE>_URL',
    profile: 'platform',
    values: SERVICES.map((service) => service.toUpperCase()),
    group: 'service',
    meaning: 'origin of one service',
    details: 'A path prefix is allowed (for proxies): it goes in front of every path and is covered by the signature.',
  },
  {
    name: 'SVC_ACCESS_KEY',
    profile: 'platform',
    group: 'service',
    meaning: 'gateway access key (E1, E2, E4, E6-E11, E13-E15)',
    bundle: {
      key: 'access_key',
      title: 'Access key',
      description: 'Gateway access key; used by all operations except translation, maps and text generation',
    },
  },
  {
    name: 'SVC_SECRET_KEY',
    profile: 'platform',
    group: 'service',
    meaning: 'gateway secret key: signs the requests, never sent',
    secret: true,
    bundle: { key: 'secret_key', title: 'Secret key', description: 'Gateway secret key; signs requests, never sent' },
  },
  {
    name: 'SVC_CLIENT_ID',
    profile: 'platform',
    group: 'service',
    meaning: 'application key pair ID of translation and maps (E3, E5)',
    bundle: {
      key: 'client_id',
      title: 'Application client ID',
      description: 'Application key pair ID for translation and maps',
    },
  },
  {
    name: 'SVC_CLIENT_SECRET',
    profile: 'platform',
    group: 'service',
    meaning: 'application key pair secret of translation and maps',
    secret: true,
    bundle: {
      key: 'client_secret',
      title: 'Application client secret',
      description: 'Application key pair secret for translation and maps',
    },
  },
  {
    name: 'SVC_TRANSLATION_CLIENT_ID',
    profile: 'platform',
    group: 'service',
    meaning: 'key pair ID of translation alone, instead of SVC_CLIENT_ID',
  },
  {
    name: 'SVC_TRANSLATION_CLIENT_SECRET',
    profile: 'platform',
    group: 'service',
    meaning: 'key pair secret of translation alone',
    secret: true,
  },
  {
    name: 'SVC_MAPS_CLIENT_ID',
    profile: 'platform',
    group: 'service',
    meaning: 'key pair ID of maps alone, instead of SVC_CLIENT_ID',
  },
  {
    name: 'SVC_MAPS_CLIENT_SECRET',
    profile: 'platform',
    group: 'service',
    meaning: 'key pair secret of maps alone',
    secret: true,
  },
  {
    name: 'SVC_STUDIO_API_KEY',
    profile: 'platform',
    group: 'service',
    meaning: 'text-generation API key (E12)',
    details: 'Sent as `X-SVC-STUDIO-API-KEY`.',
    secret: true,
    bundle: {
      key: 'studio_api_key',
      title: 'Text-generation API key',
      description: 'Studio API key for text generation',
    },
  },
  {
    name: 'SVC_STUDIO_GATEWAY_KEY',
    profile: 'platform',
    group: 'service',
    meaning: 'text-generation gateway key, issued with the API key (E12)',
    details: 'Sent as `X-SVC-APIGW-API-KEY`.',
    secret: true,
    bundle: {
      key: 'studio_gateway_key',
      title: 'Text-generation gateway key',
      description: 'Gateway key issued with the studio key',
    },
  },
  {
    name: 'SVC_STREAMING_REGION',
    profile: 'platform',
    group: 'service',
    meaning: 'streaming Region (E1, E2) when a call names none',
    choices: Object.keys(STREAMING_REGIONS),
    default: DEFAULT_STREAMING_REGION,
    bundle: {
      key: 'streaming_region',
      title: 'Streaming Region',
      description: 'Default Region of the streaming tools',
    },
  },
  {
    name: 'SVC_APP_VIEWS',
    group: 'service',
    meaning: 'false: declare and serve no MCP Apps view (as --no-app-views)',
    details:
      'On, `maps_reverse_geocode` declares a map view that hosts rendering MCP Apps (the ' +
      '`io.modelcontextprotocol/ui` extension) show beside its results; the tool result is the same either way ([docs/app-views.md](docs/app-views.md)).',
    choices: ['true', 'false'],
    default: 'true',
  },
  {
    name: 'SVC_MAP_TILES_URL',
    group: 'service',
    meaning: "tile URL ({z}/{x}/{y}) for the app view's map; unset: a schematic map, nothing fetched",
    details:
      "E.g. `https://tiles.example.org/{z}/{x}/{y}.png`: an http(s) URL with `{z}`, `{x}` and `{y}` (Web Mercator tiles). Its origin is declared in the view's " +
      'content-security policy (`_meta.ui.csp.resourceDomains`), so that the host lets the view load images from it ' +
      'and from nowhere else. The URL reaches every browser that shows the view: put no key in it. Use a tile ' +
      'server whose terms allow it.',
  },
  {
    name: 'SVC_TIMEOUT_MS',
    group: 'service',
    meaning: 'upstream deadline per tool call, retries included',
    default: '30000',
    range: [1, 600_000],
    unit: 'ms',
    bundle: { key: 'timeout_ms', title: 'Timeout (ms)', description: 'Upstream timeout per call in milliseconds' },
  },
  {
    name: 'SVC_PROFILES_FILE',
    group: 'service',
    meaning: 'credential profiles: a JSON file of named sets of the platform variables',
    details:
      '`{"profiles": {"<name>": {"<VARIABLE>": <value>, …}}, "select": {"claim": "<claim>", "rules": [{"value": ' +
      '"<claim value>", "profile": "<name>"}]}, "default": "<name>"}`. In OAuth mode the token\'s claim picks the ' +
      'profile; otherwise `--profile` / `SVC_PROFILE`. A bad file stops the start (exit code 2).',
  },
  {
    name: 'SVC_PROFILE',
    group: 'service',
    meaning: 'the profile of SVC_PROFILES_FILE this process uses (as --profile); not in OAuth mode',
  },
  {
    name: 'SVC_MAX_CONCURRENT_CALLS',
    group: 'limits',
    meaning: 'tool calls running at once, over every client (each may hold an upstream answer)',
    details:
      'Bounds the memory the calls hold: each running call may read an answer of up to SVC_MAX_RESPONSE_BYTES. ' +
      "The others wait for a place (see SVC_MAX_QUEUED_CALLS); a call waiting for its user's confirmation " +
      'holds none. A lone client may use every place; when others wait, a free place goes to the client with the ' +
      'fewest calls running.',
    default: '16',
    range: [1, 1000],
  },
  {
    name: 'SVC_MAX_QUEUED_CALLS',
    group: 'limits',
    meaning: 'tool calls that may wait for a place, over every client',
    details:
      'Waiting costs little memory. A lone client may fill it. A client is the OAuth user, else the client ' +
      'address, whose sessions share its places. With the queue full, a call that would leave its client ' +
      'holding fewer places (running and waiting) than another client holds takes the newest waiting place of ' +
      'the client holding the most, which gets `[busy]`; otherwise the new call gets `[busy]` and is not sent. The wait ' +
      "counts toward the call's SVC_TIMEOUT_MS.",
    default: '1024',
    range: [0, 100_000],
  },
  {
    name: 'SVC_MAX_RESPONSE_BYTES',
    group: 'limits',
    meaning: 'largest upstream answer read; a larger one fails the call',
    default: String(4 * MiB),
    range: [1024, 256 * MiB],
    unit: 'bytes',
  },
  {
    name: 'SVC_MAX_RESULT_BYTES',
    group: 'limits',
    meaning: 'largest tool result, text and structured content together (4 bytes ~ 1 token)',
    details:
      'A larger answer has its longest lists or texts shortened, and a note says what was left out and how to get it. ' +
      'The default keeps results within the 25,000 tokens some clients accept.',
    default: '100000',
    range: [4096, 64 * MiB],
    unit: 'bytes',
  },
  {
    name: 'SVC_WORKFLOW_TIMEOUT_MS',
    group: 'limits',
    meaning: 'deadline of translate_and_summarize, all its calls together',
    default: String(3 * 60 * 1000),
    range: [1000, 3_600_000],
    unit: 'ms',
  },
  {
    name: 'SVC_MCP_SHUTDOWN_GRACE_MS',
    group: 'limits',
    meaning: 'how long in-flight requests may still finish at shutdown, on both transports',
    details:
      'It starts at SIGINT or SIGTERM, and over stdio also at the end of stdin. Then the server closes anyway: tool ' +
      'calls still running are stopped and answered with ' +
      '`[shutting_down]`, which says for a tool that changes something whether its request was sent. See [Shutdown](#shutdown).',
    default: '10000',
    range: [0, 600_000],
    unit: 'ms',
  },
  {
    name: 'SVC_READ_ONLY',
    profile: 'narrowing',
    group: 'safety',
    meaning: 'true: only read-only tools are listed and callable (as --read-only)',
    choices: ['true', 'false'],
    default: 'false',
    bundle: { key: 'read_only', title: 'Read-only mode', description: 'Offer only the tools that change nothing' },
  },
  {
    name: 'SVC_TOOLS',
    profile: 'narrowing',
    group: 'safety',
    meaning: 'comma-separated tool names: only these are listed and callable (as --tools)',
    bundle: { key: 'tools', title: 'Only these tools', description: 'Comma-separated tool names; empty for all' },
  },
  {
    name: 'SVC_SERVICES',
    profile: 'narrowing',
    group: 'safety',
    meaning: 'comma-separated service ids: only their tools are listed and callable (as --services)',
    listOf: SERVICES,
    bundle: {
      key: 'services',
      title: 'Only these services',
      description: 'Comma-separated service ids, e.g. translation,maps; empty for all',
    },
  },
  {
    name: 'SVC_CONFIRM_DESTRUCTIVE',
    group: 'safety',
    meaning: "false: destructive calls (E11, E15) run without the user's confirmation (as --no-confirm)",
    choices: ['true', 'false'],
    default: 'true',
    bundle: {
      key: 'confirm_destructive',
      title: 'Confirm destructive calls',
      description:
        'Deleting a recommendation service or migrating a key waits for your confirmation. Turn off only for unattended use',
    },
  },
  {
    name: 'SVC_MCP_STATE_KEY',
    group: 'safety',
    meaning: 'key (32+ characters) sealing the pending confirmation of a destructive call (2026-07-28)',
    details:
      "A 2026-07-28 client confirms a destructive call by retrying it with the form's answer and a `requestState` " +
      'this server sealed (HMAC-SHA256 over the tool, its arguments and an expiry of five minutes). Replicas behind ' +
      'one proxy must share this key, so that the retry may reach any of them. Unset: a random key per process ' +
      '(the retry must reach the same process; a restart voids open forms). A shorter one, or one set but empty, ' +
      'blank or an unresolved `${...}`, stops the start (exit code 2): `openssl rand -hex 32`. Never logged.',
    secret: true,
  },
  {
    name: 'SVC_MCP_AUTH_TOKEN',
    group: 'http',
    meaning: 'bearer token, at least 32 characters; required to bind beyond loopback',
    details:
      'When set, every request except `/healthz` needs `Authorization: Bearer <token>` (compared in constant ' +
      'time) or gets `401` with `WWW-Authenticate: Bearer`. A shorter one stops the start (exit code 2), on ' +
      'loopback too: `openssl rand -hex 32`. Never logged.',
    secret: true,
  },
  {
    name: 'SVC_MCP_OAUTH_ISSUER',
    group: 'http',
    meaning: "OAuth mode: the authorization server's issuer URL (tokens are JWTs checked by its keys)",
    details:
      'Instead of `SVC_MCP_AUTH_TOKEN` (not both): every request except `/healthz` and the Protected Resource ' +
      "Metadata needs a JWT access token of this issuer for `SVC_MCP_PUBLIC_URL`, and the token's scopes " +
      '(`svc.read`, `svc.write`, `svc.destructive`) narrow the tools. https (http only on loopback); set up: docs/oauth.md.',
  },
  {
    name: 'SVC_MCP_PUBLIC_URL',
    group: 'http',
    meaning: "OAuth mode: the MCP endpoint's URL as clients reach it, e.g. https://mcp.example.com/mcp",
    details:
      'Required in OAuth mode: the audience every access token must name (RFC 8707) and the `resource` of the ' +
      'Protected Resource Metadata (RFC 9728).',
  },
  {
    name: 'SVC_MCP_OAUTH_TIMEOUT_MS',
    group: 'http',
    meaning: 'OAuth mode: how long a request may wait on the authorization server, in all',
    details:
      'One deadline for everything a request waits on (the metadata and the key set together), however slowly the ' +
      'answer trickles in: then `503` (`the authorization server did not answer in time`), logged once.',
    default: '5000',
    range: [100, 60_000],
    unit: 'ms',
  },
  {
    name: 'SVC_MCP_ALLOWED_HOSTS',
    group: 'http',
    meaning: 'comma-separated extra Host header values to accept',
    details:
      'An entry without a port (`mcp.example.com`) matches that name on any port; with a port ' +
      '(`proxy.internal:8443`) only that pair.',
  },
  {
    name: 'SVC_MCP_ALLOWED_ORIGINS',
    group: 'http',
    meaning: 'comma-separated browser origins allowed to call the server',
    details: 'For example `https://app.example.com`. These, and only these, get CORS headers.',
  },
  {
    name: 'SVC_MCP_MAX_SESSIONS',
    group: 'http',
    meaning: 'most concurrent sessions, in session mode',
    details:
      'At it, an idle session (no request in flight, no open stream) of the client holding the most sessions is ' +
      'closed to make room, its least recently used first (its client gets `404` and initialises again); with none ' +
      'idle, a session that only listens (an open stream, no request in flight) of a client holding more than the ' +
      'newcomer would. Only when every session in the way has a request in flight, or the newcomer holds as many as ' +
      'any other client, does `initialize` get `503` with `Retry-After` and a JSON-RPC error that says so.',
    default: '100',
    range: [1, 100_000],
  },
  {
    name: 'SVC_MCP_MAX_SESSIONS_PER_CLIENT',
    group: 'http',
    meaning: 'most concurrent sessions of one client address, in session mode',
    details:
      "At it, that client's least recently used idle session (no request in flight, no open stream) is closed " +
      'to make room, so that sessions a script left behind hurt only that client; only when every one of its ' +
      'sessions is live does its `initialize` get `429` with `Retry-After`. An IPv6 client counts by its /64; ' +
      'each loopback address counts as one client. A reverse proxy ' +
      'not listed in `SVC_MCP_TRUSTED_PROXIES` brings every client as one (its own address): list it to count ' +
      'its clients one by one (see [Limits](#limits)).',
    default: '10',
    range: [1, 100_000],
  },
  {
    name: 'SVC_MCP_TRUSTED_PROXIES',
    group: 'http',
    meaning: 'comma-separated proxy addresses or CIDR blocks whose X-Forwarded-For is believed',
    details:
      'For the per-client limits only: a request from one of them counts for the rightmost ' +
      '`X-Forwarded-For` address that is not itself listed (nginx: ' +
      '`proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;`). Unset: the header is ignored.',
  },
  {
    name: 'SVC_MCP_SESSION_IDLE_MS',
    group: 'http',
    meaning: 'a session with no request for this long is closed',
    details: 'Its id then gets `404` (clients initialise again). A session with a call in flight is never idle.',
    default: String(10 * 60 * 1000),
    range: [1000, 86_400_000],
    unit: 'ms',
  },
  {
    name: 'SVC_MCP_MAX_BODY_BYTES',
    group: 'http',
    meaning: 'largest request body',
    details: 'Larger ones get `413`.',
    default: String(4 * MiB),
    range: [1024, 1024 * MiB],
    unit: 'bytes',
  },
  {
    name: 'SVC_MCP_REQUEST_TIMEOUT_MS',
    group: 'http',
    meaning: 'time a request has to arrive whole, headers and body',
    details:
      'A body still arriving then (an endless chunked one, a trickle) gets `408` and its connection is closed; ' +
      'headers must arrive within 10 s (or this, if shorter). Streaming responses are not limited by it.',
    default: '30000',
    range: [1000, 600_000],
    unit: 'ms',
  },
  {
    name: 'SVC_MCP_MAX_CONNECTIONS',
    group: 'http',
    meaning: 'most open connections; shared by client address when full',
    details:
      'A connection counts for its address from the moment it is accepted, headers still to come. Each ' +
      '`GET /mcp` stream and each response being streamed holds one, kept-alive idle ones (5 s) too. A lone ' +
      'address may hold them all; over the cap, an idle connection (no request being served) of the address ' +
      'holding the most is closed, else the new one. Closures are logged (`connections_refused`), at most once ' +
      'a second.',
    default: '1000',
    range: [1, 1_000_000],
  },
  {
    name: 'SVC_MCP_MAX_UNREAD_BYTES',
    group: 'http',
    meaning: 'unread response bytes a session may leave waiting before its new requests are refused',
    details:
      'What its open response streams hold in the process beyond what the network took. Over it, a request ' +
      'on that session gets `503` with `Retry-After` until the client reads; notifications still pass. ' +
      'Keep it above `SVC_MAX_RESULT_BYTES`.',
    default: String(MiB),
    range: [65_536, 1024 * MiB],
    unit: 'bytes',
  },
  {
    name: 'SVC_MCP_REPLICA_ID',
    group: 'http',
    meaning: 'name of this replica: every session id it creates starts with it, for a proxy to route on',
    details:
      '1 to 32 letters, digits or `-`, e.g. `r1`: session ids become `r1.<uuid>`, so that a reverse proxy can route ' +
      'each session back to its replica by that prefix (see [Deploying](#deploying)). No effect with `--stateless`.',
  },
  {
    name: 'HTTP_PROXY',
    alias: 'http_proxy',
    group: 'proxy',
    meaning: 'proxy of upstream calls, also of https ones without HTTPS_PROXY',
  },
  {
    name: 'HTTPS_PROXY',
    alias: 'https_proxy',
    group: 'proxy',
    meaning: 'proxy of https upstream calls',
  },
  {
    name: 'NO_PROXY',
    alias: 'no_proxy',
    group: 'proxy',
    meaning: 'comma-separated hosts reached directly (loopback always is)',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    group: 'telemetry',
    meaning: 'OTLP/HTTP collector that receives traces and metrics; setting it turns telemetry on',
    details:
      'E.g. `http://localhost:4318`: traces go to `/v1/traces` and metrics to `/v1/metrics` under it. Unset (and ' +
      'no signal endpoint below), the server loads no OpenTelemetry code at all. See [Telemetry](docs/telemetry.md).',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    group: 'telemetry',
    meaning: 'URL that receives the traces alone (used as it is); turns traces on',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
    group: 'telemetry',
    meaning: 'URL that receives the metrics alone (used as it is); turns metrics on',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    group: 'telemetry',
    meaning: 'how the exports are encoded',
    choices: ['http/protobuf', 'http/json'],
    default: 'http/protobuf',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_HEADERS',
    group: 'telemetry',
    meaning: 'headers of every export, `name=value` pairs separated by commas (a collector token)',
    details: 'Their values are secrets: kept out of every result, error, log line and export.',
    secret: true,
  },
  {
    name: 'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
    group: 'telemetry',
    meaning: 'headers of the trace exports alone, added to OTEL_EXPORTER_OTLP_HEADERS',
    secret: true,
  },
  {
    name: 'OTEL_EXPORTER_OTLP_METRICS_HEADERS',
    group: 'telemetry',
    meaning: 'headers of the metric exports alone, added to OTEL_EXPORTER_OTLP_HEADERS',
    secret: true,
  },
  {
    name: 'OTEL_SERVICE_NAME',
    group: 'telemetry',
    meaning: 'the `service.name` of every span and metric',
    default: 'svc-platform-mcp',
  },
  {
    name: 'OTEL_SDK_DISABLED',
    group: 'telemetry',
    meaning: 'true turns telemetry off whatever the endpoints say',
    choices: ['true', 'false'],
    default: 'false',
  },
  {
    name: 'OTEL_TRACES_SAMPLER',
    group: 'telemetry',
    meaning: 'which traces are kept',
    details:
      "As OpenTelemetry defines them: `parentbased_*` follows the client's sampling decision when its request " +
      'carries a trace context; `*traceidratio` keeps the share of OTEL_TRACES_SAMPLER_ARG.',
    choices: [
      'parentbased_always_on',
      'parentbased_always_off',
      'parentbased_traceidratio',
      'always_on',
      'always_off',
      'traceidratio',
    ],
    default: 'parentbased_always_on',
  },
  {
    name: 'OTEL_TRACES_SAMPLER_ARG',
    group: 'telemetry',
    meaning: 'the share of traces the `traceidratio` samplers keep, from 0 to 1',
    default: '1',
  },
  {
    name: 'OTEL_METRIC_EXPORT_INTERVAL',
    group: 'telemetry',
    meaning: 'time between two metric exports (and a last one at shutdown)',
    default: '60000',
    range: [1000, 3_600_000],
    unit: 'ms',
  },
  {
    name: 'SVC_TELEMETRY_TOOL_ARGUMENTS',
    group: 'telemetry',
    meaning: "true records each tool call's arguments on its span, with every known secret redacted",
    details:
      "Off by default: arguments are the user's data (texts to translate, ids). On, they are recorded as " +
      '`gen_ai.tool.call.arguments`; results are never recorded.',
    choices: ['true', 'false'],
    default: 'false',
  },
] as const satisfies readonly EnvVariable[];

type Row = (typeof ENV_VARIABLES)[number];

/** SVC_<SERVICE>_URL of one service. */
export const serviceUrlVariable = (service: ServiceId) =>
  `SVC_${service.toUpperCase() as Uppercase<ServiceId>}_URL` as const;

/** Every name configuration may read: the plain names, the names a pattern stands for, and the aliases. */
export type EnvName =
  | Exclude<Row['name'], `${string}<${string}`>
  | ReturnType<typeof serviceUrlVariable>
  | Extract<Row, { alias: string }>['alias'];

/**
 * A variable's name as a message writes it. Typed by the table: a message naming a variable that was renamed or
 * removed does not compile.
 */
export const envName = <N extends EnvName>(name: N): N => name;

/** The variables that have a default. */
export type DefaultedEnvName = Extract<Row, { default: string }>['name'];

/** The whole numbers: each has a default and bounds. */
export type WholeNumberEnvName = Extract<Row, { range: readonly [number, number]; default: string }>['name'];

/** The variables that take one of a few values. */
export type ChoiceEnvName = Extract<Row, { choices: readonly string[] }>['name'];

/** The default of a variable, as written in the environment. */
export function envDefault(name: DefaultedEnvName): string {
  const row = ENV_VARIABLES.find((v): v is Extract<Row, { default: string }> => v.name === name && 'default' in v);
  if (!row) throw new Error(`${name} has no default`);
  return row.default;
}

/** The bounds of a whole number, both included. */
export function envRange(name: WholeNumberEnvName): readonly [min: number, max: number] {
  const row = ENV_VARIABLES.find(
    (v): v is Extract<Row, { range: readonly [number, number] }> => v.name === name && 'range' in v,
  );
  if (!row) throw new Error(`${name} has no range`);
  return row.range;
}

/** The values a variable accepts. */
export function envChoices(name: ChoiceEnvName): readonly string[] {
  const row = ENV_VARIABLES.find(
    (v): v is Extract<Row, { choices: readonly string[] }> => v.name === name && 'choices' in v,
  );
  if (!row) throw new Error(`${name} has no choices`);
  return row.choices;
}

/**
 * The key pairs: both variables of a pair are set, or neither. Which credential each configures: the gateway
 * signature, the application key pair of translation and maps (or of one of them), the text-generation keys.
 */
export const KEY_PAIRS = {
  gateway: ['SVC_ACCESS_KEY', 'SVC_SECRET_KEY'],
  app: ['SVC_CLIENT_ID', 'SVC_CLIENT_SECRET'],
  translation: ['SVC_TRANSLATION_CLIENT_ID', 'SVC_TRANSLATION_CLIENT_SECRET'],
  maps: ['SVC_MAPS_CLIENT_ID', 'SVC_MAPS_CLIENT_SECRET'],
  studio: ['SVC_STUDIO_API_KEY', 'SVC_STUDIO_GATEWAY_KEY'],
} as const satisfies Record<string, readonly [EnvName, EnvName]>;

/** The other variable of a key pair, if the name is in one. */
export function pairedWith(name: string): string | undefined {
  for (const [a, b] of Object.values(KEY_PAIRS)) {
    if (name === a) return b;
    if (name === b) return a;
  }
  return undefined;
}

/** Whether a concrete name is a secret of the table. */
export function isSecret(name: string): boolean {
  return variableNamed(name)?.secret === true;
}

/** SERVICE for SVC_<SERVICE>_URL; undefined for a plain name. */
export function placeholderOf(variable: EnvVariable): string | undefined {
  return /<(\w+)>/.exec(variable.name)?.[1];
}

/** The names a row stands for: itself, or one per value of its placeholder; then its alias. */
export function namesOf(variable: EnvVariable): string[] {
  const names = variable.values
    ? variable.values.map((value) => variable.name.replace(/<\w+>/, value))
    : [variable.name];
  return variable.alias ? [...names, variable.alias] : names;
}

/** The row a concrete name belongs to, if any. */
export function variableNamed(name: string): EnvVariable | undefined {
  return ENV_VARIABLES.find((v: EnvVariable) => namesOf(v).includes(name));
}

/** The names a credential profile may set, each with what it is for (the rows marked `profile`). */
export function profileVariables(): ReadonlyMap<string, { kind: 'platform' | 'narrowing'; secret: boolean }> {
  const rows = (ENV_VARIABLES as readonly EnvVariable[]).filter((v) => v.profile !== undefined);
  return new Map(
    rows.flatMap((v) => namesOf(v).map((name) => [name, { kind: v.profile!, secret: v.secret === true }] as const)),
  );
}

/** A default in words, e.g. 30 min for 1800000 ms or 4 MiB for 4194304 bytes; undefined when the number says it. */
export function readableDefault(variable: EnvVariable): string | undefined {
  return variable.default === undefined ? undefined : inWords(Number(variable.default), variable.unit);
}

/** A number of the variable's unit in words (30 min, 4 MiB, 1 GiB); undefined when the number says it. */
export function inWords(n: number, unit: EnvVariable['unit']): string | undefined {
  if (!Number.isInteger(n) || n === 0) return undefined;
  if (unit === 'ms') {
    if (n % 3_600_000 === 0) return `${n / 3_600_000} h`;
    if (n % 60_000 === 0) return `${n / 60_000} min`;
    if (n % 1000 === 0) return `${n / 1000} s`;
  }
  if (unit === 'bytes') {
    if (n % (1024 * MiB) === 0) return `${n / (1024 * MiB)} GiB`;
    if (n % MiB === 0) return `${n / MiB} MiB`;
    if (n % 1024 === 0) return `${n / 1024} KiB`;
  }
  return undefined;
}

/** A yes-or-no setting: its choices are `true` and `false`. */
export const isBoolean = (variable: EnvVariable) => variable.choices?.join() === 'true,false';

/** The bounds as `--help` and server.json show them: `1 to 600000`. */
export function rangeText(variable: EnvVariable): string | undefined {
  return variable.range && `${variable.range[0]} to ${variable.range[1]}`;
}
