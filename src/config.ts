import { parseArgs } from 'node:util';
import { SERVICES, type ServiceId } from './catalogue/types.js';
import type { StreamingRegion } from './catalogue/fields.js';
import type { AppKeys, GatewayKeys, StudioKeys } from './upstream/auth.js';
import { environmentHelp } from './env-help.js';
import { HTTP_ONLY_FLAGS, HTTP_ONLY_MESSAGE, PARSE_OPTIONS, flagDefault, flagsHelp, type Flags } from './flags.js';
import {
  KEY_PAIRS,
  envChoices,
  envDefault,
  envRange,
  isSecret,
  serviceUrlVariable,
  type ChoiceEnvName,
  type EnvName,
  type WholeNumberEnvName,
} from './env-variables.js';
import TOOL_DEFINITIONS from './generated/tool-definitions.json' with { type: 'json' };
import { isLoopback } from './util/loopback.js';
import { parseAddressOrBlock } from './transports/http-clients.js';
import { parseHeaders, signalUrl, type TelemetryOptions } from './telemetry/options.js';
import type { Profiles } from './profiles.js';

export interface HttpOptions {
  host: string;
  port: number;
  stateless: boolean;
  authToken?: string;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  maxSessions: number;
  /** Sessions one client address may hold (clients on loopback are not counted). */
  maxSessionsPerClient: number;
  /** Reverse proxies (addresses, CIDR blocks) whose X-Forwarded-For names the client. */
  trustedProxies?: string[];
  sessionIdleMs: number;
  maxBodyBytes: number;
  /** Time a request has to arrive whole (headers and body). */
  requestTimeoutMs: number;
  /** Open connections at most. */
  maxConnections: number;
  /** Bytes a session's response streams may hold unread before its new requests are refused. */
  maxUnreadBytes: number;
  /** Prefix of the session ids this process creates (`<id>.<uuid>`), so that a proxy can route them back to it. */
  replicaId?: string;
  /** OAuth mode (instead of authToken): access tokens of this issuer, for this URL. */
  oauth?: OAuthOptions;
}

export interface OAuthOptions {
  issuer: string;
  /** The MCP endpoint's canonical URL: the tokens' audience and the metadata's `resource`. */
  publicUrl: string;
  /** SVC_MCP_OAUTH_TIMEOUT_MS: how long a request may wait on the authorization server's metadata and keys. */
  timeoutMs: number;
  /** Credential profiles, when SVC_PROFILES_FILE is set: each token's claim picks one (profiles.ts). */
  profiles?: Profiles;
}

export interface Credentials {
  gateway?: GatewayKeys;
  /** Application key pairs per service that uses them (E3 translation, E5 maps). */
  appKeys: Partial<Record<'translation' | 'maps', AppKeys>>;
  studio?: StudioKeys;
}

/** Which tools the process offers, and whether destructive calls wait for the user (the operator's choice). */
export interface SafetyOptions {
  readOnly: boolean;
  /** Only these tools, when set. */
  tools?: string[];
  /** Only the tools of these services, when set. */
  services?: ServiceId[];
  confirmDestructive: boolean;
  /** Seals the state of a confirmation awaiting its form (2026-07-28); random per process when unset. */
  stateKey?: string;
}

/** What one process may hold and spend at once. */
export interface Limits {
  maxConcurrentCalls: number;
  maxQueuedCalls: number;
  maxResponseBytes: number;
  maxResultBytes: number;
  workflowTimeoutMs: number;
}

export interface Config {
  transport: 'stdio' | 'http';
  safety: SafetyOptions;
  limits: Limits;
  http: HttpOptions;
  sandbox: boolean;
  /** Origin (optionally with a path prefix) per service; missing means not configured. */
  serviceUrls: Partial<Record<ServiceId, string>>;
  credentials: Credentials;
  streamingRegion: StreamingRegion;
  timeoutMs: number;
  /**
   * How long in-flight requests may finish at shutdown (SIGINT/SIGTERM; over stdio also the end of stdin) before the
   * rest are cut off. Both transports.
   */
  shutdownGraceMs: number;
  /** Proxy settings for upstream calls, from HTTP(S)_PROXY / NO_PROXY. */
  proxy: { http?: string; https?: string; noProxy?: string };
  /** OpenTelemetry, when the OTEL_* variables ask for it (docs/telemetry.md); undefined: off, nothing loaded. */
  telemetry?: TelemetryOptions;
  /** MCP Apps views (docs/app-views.md); off: no tool declares one and no ui:// resource is served. */
  appViews: AppViewsOptions;
  /** The values of the variables the table marks secret: kept out of every result, error and log line. */
  secrets: readonly string[];
  /** SVC_PROFILES_FILE: credential profiles, read at start into `profiles`. */
  profilesFile?: string;
  /** The profile this process uses (--profile, SVC_PROFILE, or the file's default; not in OAuth mode). */
  profile?: string;
  /** The credential profiles (OAuth mode: picked per token by `profiles.select`). */
  profiles?: Profiles;
}

export interface AppViewsOptions {
  enabled: boolean;
  /** The operator's tile server (SVC_MAP_TILES_URL); none: the view draws a schematic map and fetches nothing. */
  tiles?: TileServer;
}

export interface TileServer {
  /** The URL with {z}, {x} and {y}. */
  template: string;
  /** What the view's content-security policy allows images from. */
  origin: string;
}

/** Shortest SVC_MCP_AUTH_TOKEN accepted: 32 random hex characters are 128 bits. */
const MIN_TOKEN_LENGTH = 32;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** --help, made when asked for: the flags (src/flags.ts), then the environment. */
export const usage = () =>
  [
    'Usage: svc-platform-mcp [options]',
    '',
    `  ${'(no option)'.padEnd(FLAG_COLUMN)}serve MCP over stdio`,
    ...flagsHelp('  ', FLAG_COLUMN),
    '',
    environmentHelp(),
  ].join('\n');

/** Where --help's text of each flag begins. */
const FLAG_COLUMN = 23;

/** Every tool the server has: what --tools and SVC_TOOLS may name. */
export const TOOL_NAMES: readonly string[] = Object.keys(TOOL_DEFINITIONS);

export type Env = Readonly<Record<string, string | undefined>>;

export type ParsedCommand = { kind: 'help' } | { kind: 'version' } | { kind: 'serve'; config: Config };

/** Flags and environment -> one validated Config. Pure: the caller passes argv and env. */
export function parseCommand(argv: readonly string[], env: Env): ParsedCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: PARSE_OPTIONS,
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}\n\n${usage()}`);
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  if (!values.http && HTTP_ONLY_FLAGS.some((name) => values[name])) throw new ConfigError(HTTP_ONLY_MESSAGE);
  return { kind: 'serve', config: buildConfig(values, env) };
}

/**
 * An MCP Bundle host passes `${user_config.<key>}` through as it is when the user left that setting blank: such a
 * value is unset, so that a call answers "not configured" naming the variable instead of sending the placeholder.
 */
const UNRESOLVED_PLACEHOLDER = /^\$\{user_config\.[^}]*\}$/;

type Value = (name: EnvName) => string | undefined;

/** Reads variables by the table: blank or unresolved is unset, and the value of a secret is noted in `secrets`. */
function reader(env: Env): { value: Value; secrets: Set<string> } {
  const secrets = new Set<string>();
  const value = (name: EnvName) => {
    const v = env[name]?.trim();
    if (!v || UNRESOLVED_PLACEHOLDER.test(v)) return undefined;
    if (isSecret(name)) secrets.add(v);
    return v;
  };
  return { value, secrets };
}

/** The credentials of an environment and their secrets: the operator's, or the ones the sandbox gives itself. */
export function credentialsFrom(env: Env): Pick<Config, 'credentials' | 'secrets'> {
  const { value, secrets } = reader(env);
  const credentials = readCredentials(value);
  return { credentials, secrets: [...secrets] };
}

function readCredentials(value: Value): Credentials {
  const pair = ([a, b]: readonly [EnvName, EnvName]) => {
    const x = value(a);
    const y = value(b);
    if (Boolean(x) !== Boolean(y)) throw new ConfigError(`${x ? b : a} must be set together with ${x ? a : b}`);
    return x && y ? ([x, y] as const) : undefined;
  };
  const gateway = pair(KEY_PAIRS.gateway);
  const app = pair(KEY_PAIRS.app);
  const appFor = (service: 'translation' | 'maps') => {
    const own = pair(KEY_PAIRS[service]) ?? app;
    return own ? { clientId: own[0], clientSecret: own[1] } : undefined;
  };
  const studio = pair(KEY_PAIRS.studio);
  const appKeys: Credentials['appKeys'] = {};
  const translation = appFor('translation');
  const maps = appFor('maps');
  if (translation) appKeys.translation = translation;
  if (maps) appKeys.maps = maps;
  return {
    gateway: gateway && { accessKey: gateway[0], secretKey: gateway[1] },
    appKeys,
    studio: studio && { apiKey: studio[0], gatewayKey: studio[1] },
  };
}

/** What reaches the platform, read from one environment (the process's, or a profile's). */
export type PlatformSettings = Pick<Config, 'serviceUrls' | 'credentials' | 'streamingRegion'>;

function readPlatform(value: Value): PlatformSettings {
  const serviceUrls: Partial<Record<ServiceId, string>> = {};
  const gatewayUrl = value('SVC_GATEWAY_URL');
  for (const service of SERVICES) {
    const name = serviceUrlVariable(service);
    const url = value(name) ?? gatewayUrl;
    if (url) serviceUrls[service] = parseOrigin(url, value(name) ? name : 'SVC_GATEWAY_URL');
  }
  const region = oneOf('SVC_STREAMING_REGION', value('SVC_STREAMING_REGION') ?? envDefault('SVC_STREAMING_REGION'));
  return { serviceUrls, credentials: readCredentials(value), streamingRegion: region as StreamingRegion };
}

/** The platform settings of an environment and the secrets among them (a credential profile's, see profiles.ts). */
export function platformFrom(env: Env): PlatformSettings & { secrets: string[] } {
  const { value, secrets } = reader(env);
  const platform = readPlatform(value);
  return { ...platform, secrets: [...secrets] };
}

/** The tool filters of an environment (a credential profile's): each can only take tools away. */
export function narrowingFrom(env: Env): Pick<SafetyOptions, 'readOnly' | 'tools' | 'services'> {
  const { value } = reader(env);
  const { readOnly, tools, services } = safetyOptions({}, value, {});
  return { readOnly, ...(tools ? { tools } : {}), ...(services ? { services } : {}) };
}

function buildConfig(flags: Flags, env: Env): Config {
  // Typed by the table: a variable read here is one that --help, the README and the manifest know.
  const { value, secrets } = reader(env);
  const { serviceUrls, credentials, streamingRegion } = readPlatform(value);
  const wholeNumber = (name: WholeNumberEnvName) => integer(value(name) ?? envDefault(name), name, ...envRange(name));
  const timeoutMs = wholeNumber('SVC_TIMEOUT_MS');

  const host = flags.host ?? flagDefault('host');
  const authToken = value('SVC_MCP_AUTH_TOKEN');
  const oauth = flags.http
    ? oauthOptions(value, authToken !== undefined, wholeNumber('SVC_MCP_OAUTH_TIMEOUT_MS'))
    : undefined;
  if (flags.http && !isLoopback(host) && !authToken && !oauth) {
    throw new ConfigError(
      `refusing to bind ${host} (not loopback) without SVC_MCP_AUTH_TOKEN or SVC_MCP_OAUTH_ISSUER (OAuth)`,
    );
  }
  // On loopback too: a local reverse proxy brings the whole network there, and the failure back-off cannot tell its
  // clients apart (docs/http.md, Limits), so the token's length is what stands against guessing.
  if (flags.http && authToken !== undefined && authToken.length < MIN_TOKEN_LENGTH) {
    throw new ConfigError(
      `SVC_MCP_AUTH_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters (it has ${authToken.length}): generate one with \`openssl rand -hex 32\``,
    );
  }
  const list = (name: EnvName) =>
    value(name)
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const replicaId = value('SVC_MCP_REPLICA_ID');
  if (replicaId !== undefined && !/^[A-Za-z0-9-]{1,32}$/.test(replicaId)) {
    throw new ConfigError(`SVC_MCP_REPLICA_ID must be 1 to 32 letters, digits or "-", got "${replicaId}"`);
  }

  const trustedProxies = list('SVC_MCP_TRUSTED_PROXIES');
  const notAddress = trustedProxies?.find((entry) => !parseAddressOrBlock(entry));
  if (notAddress !== undefined) {
    throw new ConfigError(
      `SVC_MCP_TRUSTED_PROXIES: "${notAddress}" is not an IP address or CIDR block (e.g. 127.0.0.1, 10.0.0.0/8, fd00::/8)`,
    );
  }

  return {
    transport: flags.http ? 'http' : 'stdio',
    safety: safetyOptions(flags, value, env),
    limits: {
      maxConcurrentCalls: wholeNumber('SVC_MAX_CONCURRENT_CALLS'),
      maxQueuedCalls: wholeNumber('SVC_MAX_QUEUED_CALLS'),
      maxResponseBytes: wholeNumber('SVC_MAX_RESPONSE_BYTES'),
      maxResultBytes: wholeNumber('SVC_MAX_RESULT_BYTES'),
      workflowTimeoutMs: wholeNumber('SVC_WORKFLOW_TIMEOUT_MS'),
    },
    http: {
      host,
      port: integer(flags.port ?? flagDefault('port'), '--port', 0, 65535),
      stateless: Boolean(flags.stateless),
      authToken,
      allowedHosts: list('SVC_MCP_ALLOWED_HOSTS'),
      allowedOrigins: list('SVC_MCP_ALLOWED_ORIGINS'),
      maxSessions: wholeNumber('SVC_MCP_MAX_SESSIONS'),
      maxSessionsPerClient: wholeNumber('SVC_MCP_MAX_SESSIONS_PER_CLIENT'),
      trustedProxies,
      sessionIdleMs: wholeNumber('SVC_MCP_SESSION_IDLE_MS'),
      maxBodyBytes: wholeNumber('SVC_MCP_MAX_BODY_BYTES'),
      requestTimeoutMs: wholeNumber('SVC_MCP_REQUEST_TIMEOUT_MS'),
      maxConnections: wholeNumber('SVC_MCP_MAX_CONNECTIONS'),
      maxUnreadBytes: wholeNumber('SVC_MCP_MAX_UNREAD_BYTES'),
      replicaId,
      ...(oauth ? { oauth } : {}),
    },
    sandbox: Boolean(flags.sandbox),
    serviceUrls,
    credentials,
    streamingRegion,
    timeoutMs,
    ...profileChoice(flags, value, oauth !== undefined),
    shutdownGraceMs: wholeNumber('SVC_MCP_SHUTDOWN_GRACE_MS'),
    proxy: {
      http: value('HTTP_PROXY') ?? value('http_proxy'),
      https: value('HTTPS_PROXY') ?? value('https_proxy'),
      noProxy: value('NO_PROXY') ?? value('no_proxy'),
    },
    appViews: appViewsOptions(flags, value),
    ...withTelemetry(value, secrets),
    // Last: every variable has been read by now.
    secrets: [...secrets],
  };
}

/**
 * Where the credential profiles are and which one this process uses; the file is read at start (main.ts, with
 * profiles.ts). In OAuth mode each token's claim picks the profile, so a process-wide choice would be ignored.
 */
function profileChoice(flags: Flags, value: Value, oauth: boolean): Pick<Config, 'profilesFile' | 'profile'> {
  const profilesFile = value('SVC_PROFILES_FILE');
  const profile = flags.profile?.trim() || value('SVC_PROFILE');
  const source = flags.profile !== undefined ? '--profile' : 'SVC_PROFILE';
  if (profile !== undefined && profilesFile === undefined)
    throw new ConfigError(`${source} names a profile, but SVC_PROFILES_FILE is not set`);
  if (profile !== undefined && oauth)
    throw new ConfigError(
      `${source} is not used in OAuth mode: each token's claim picks its profile (docs/profiles.md)`,
    );
  return { ...(profilesFile ? { profilesFile } : {}), ...(profile ? { profile } : {}) };
}

/**
 * Telemetry is on when an OTLP endpoint is set (the general one or a signal's) and OTEL_SDK_DISABLED is not true.
 * Each header value is a secret of its own too (a token may travel apart from its `name=`).
 */
function withTelemetry(value: Value, secrets: Set<string>): { telemetry?: TelemetryOptions } {
  const yes = (name: 'OTEL_SDK_DISABLED' | 'SVC_TELEMETRY_TOOL_ARGUMENTS') =>
    boolean(value(name) ?? envDefault(name), name);
  const general = optionalUrl(value, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const tracesUrl = signalUrl(optionalUrl(value, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'), general, 'v1/traces');
  const metricsUrl = signalUrl(optionalUrl(value, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'), general, 'v1/metrics');
  const headers = (name: EnvName) => {
    const parsed = parseHeaders(value(name));
    if (!parsed) throw new ConfigError(`${name} must be name=value pairs separated by commas (value not shown)`);
    for (const secret of Object.values(parsed)) if (secret) secrets.add(secret);
    return parsed;
  };
  const common = headers('OTEL_EXPORTER_OTLP_HEADERS');
  const tracesHeaders = { ...common, ...headers('OTEL_EXPORTER_OTLP_TRACES_HEADERS') };
  const metricsHeaders = { ...common, ...headers('OTEL_EXPORTER_OTLP_METRICS_HEADERS') };
  const ratioText = value('OTEL_TRACES_SAMPLER_ARG') ?? envDefault('OTEL_TRACES_SAMPLER_ARG');
  const ratio = Number(ratioText);
  if (!/^\d*\.?\d+$/.test(ratioText) || !(ratio >= 0 && ratio <= 1)) {
    throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${ratioText}"`);
  }
  const options: TelemetryOptions = {
    serviceName: value('OTEL_SERVICE_NAME') ?? envDefault('OTEL_SERVICE_NAME'),
    protocol: oneOf(
      'OTEL_EXPORTER_OTLP_PROTOCOL',
      value('OTEL_EXPORTER_OTLP_PROTOCOL') ?? envDefault('OTEL_EXPORTER_OTLP_PROTOCOL'),
    ) as TelemetryOptions['protocol'],
    ...(tracesUrl ? { tracesUrl } : {}),
    ...(metricsUrl ? { metricsUrl } : {}),
    tracesHeaders,
    metricsHeaders,
    sampler: {
      name: oneOf('OTEL_TRACES_SAMPLER', value('OTEL_TRACES_SAMPLER') ?? envDefault('OTEL_TRACES_SAMPLER')),
      ratio,
    },
    metricIntervalMs: integer(
      value('OTEL_METRIC_EXPORT_INTERVAL') ?? envDefault('OTEL_METRIC_EXPORT_INTERVAL'),
      'OTEL_METRIC_EXPORT_INTERVAL',
      ...envRange('OTEL_METRIC_EXPORT_INTERVAL'),
    ),
    toolArguments: yes('SVC_TELEMETRY_TOOL_ARGUMENTS'),
  };
  if (yes('OTEL_SDK_DISABLED') || (!tracesUrl && !metricsUrl)) return {};
  return { telemetry: options };
}

/** An http(s) URL, or unset. */
function optionalUrl(value: Value, name: EnvName): string | undefined {
  const text = value(name);
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${name} is not a URL (value not shown)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`${name} must be an http(s) URL: this server exports OTLP over HTTP`);
  return text;
}

/**
 * OAuth mode, when SVC_MCP_OAUTH_ISSUER is set: with SVC_MCP_PUBLIC_URL, and not beside a static token (a request
 * would not know which to check). The issuer is https, loopback aside: its keys decide who may call.
 */
function oauthOptions(value: Value, withToken: boolean, timeoutMs: number): OAuthOptions | undefined {
  const issuer = value('SVC_MCP_OAUTH_ISSUER');
  const publicUrl = value('SVC_MCP_PUBLIC_URL');
  if (issuer === undefined) {
    if (publicUrl !== undefined) throw new ConfigError('SVC_MCP_PUBLIC_URL is set without SVC_MCP_OAUTH_ISSUER');
    return undefined;
  }
  if (withToken)
    throw new ConfigError('SVC_MCP_OAUTH_ISSUER and SVC_MCP_AUTH_TOKEN exclude each other: set one of them');
  if (publicUrl === undefined)
    throw new ConfigError("SVC_MCP_OAUTH_ISSUER needs SVC_MCP_PUBLIC_URL (the MCP endpoint's URL as clients reach it)");
  const issuerUrl = absoluteUrl(issuer, 'SVC_MCP_OAUTH_ISSUER');
  if (issuerUrl.protocol !== 'https:' && !(issuerUrl.protocol === 'http:' && isLoopback(issuerUrl.hostname)))
    throw new ConfigError('SVC_MCP_OAUTH_ISSUER must be an https URL (http only on loopback)');
  const publicUrlParsed = absoluteUrl(publicUrl, 'SVC_MCP_PUBLIC_URL');
  if (publicUrlParsed.protocol !== 'https:' && publicUrlParsed.protocol !== 'http:')
    throw new ConfigError('SVC_MCP_PUBLIC_URL must be an http(s) URL');
  // Both are kept as written: the issuer is compared with each token's `iss` exactly (RFC 8414), and clients compare
  // the metadata's `resource` with the URL they were given.
  return { issuer, publicUrl, timeoutMs };
}

/** A URL without query, fragment or user info (it names a party, it carries nothing). */
function absoluteUrl(text: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${name} is not a URL`);
  }
  if (url.search || url.hash || url.username || url.password)
    throw new ConfigError(`${name} must have no query, fragment or user info`);
  return url;
}

/** The flag wins over its variable; names are checked here, so that a typo stops the start (exit 2), not a call. */
function safetyOptions(flags: Flags, value: Value, env: Env): SafetyOptions {
  const names = <T extends string>(flag: string | undefined, variable: EnvName, kind: string, valid: readonly T[]) => {
    const text = flag ?? value(variable);
    if (text === undefined) return undefined;
    const source = flag !== undefined ? `--${kind}s` : variable;
    const list = [
      ...new Set(
        text
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = list.filter((name) => !(valid as readonly string[]).includes(name));
    if (unknown.length > 0)
      throw new ConfigError(`unknown ${kind} in ${source}: ${unknown.join(', ')}; valid: ${valid.join(', ')}`);
    if (list.length === 0) throw new ConfigError(`${source} names no ${kind}; valid: ${valid.join(', ')}`);
    return list as T[];
  };
  const flag = (name: 'SVC_READ_ONLY' | 'SVC_CONFIRM_DESTRUCTIVE', on: boolean | undefined, whenOn: boolean) =>
    on === true ? whenOn : boolean(value(name) ?? envDefault(name), name);
  return {
    readOnly: flag('SVC_READ_ONLY', flags['read-only'], true),
    tools: names(flags.tools, 'SVC_TOOLS', 'tool', TOOL_NAMES),
    services: names(flags.services, 'SVC_SERVICES', 'service', SERVICES),
    confirmDestructive: flag('SVC_CONFIRM_DESTRUCTIVE', flags['no-confirm'], false),
    stateKey: stateKey(env.SVC_MCP_STATE_KEY, value('SVC_MCP_STATE_KEY')),
  };
}

/**
 * The HMAC key must be as strong as a token: the SDK's codec needs 32 bytes. Set but unusable (empty, blank, an
 * unresolved `${...}`) stops the start: taken as unset, it would become a random key per process, and replicas would
 * refuse each other's confirmations without a word.
 */
function stateKey(raw: string | undefined, text: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const fix = 'set a key of 32 bytes or more (`openssl rand -hex 32`), or leave the variable unset';
  if (raw.trim() === '') throw new ConfigError(`SVC_MCP_STATE_KEY is set but empty: ${fix}`);
  if (/\$\{[^}]*\}/.test(raw)) {
    throw new ConfigError(`SVC_MCP_STATE_KEY holds an unresolved placeholder (\${...}): ${fix}`);
  }
  if (text !== undefined && Buffer.byteLength(text, 'utf8') < MIN_TOKEN_LENGTH) {
    throw new ConfigError(
      `SVC_MCP_STATE_KEY must be at least ${MIN_TOKEN_LENGTH} bytes (it has ${Buffer.byteLength(text, 'utf8')}): generate one with \`openssl rand -hex 32\``,
    );
  }
  return text;
}

/** The flag wins over its variable, as for the safety flags. */
function appViewsOptions(flags: Flags, value: Value): AppViewsOptions {
  const enabled = flags['no-app-views']
    ? false
    : boolean(value('SVC_APP_VIEWS') ?? envDefault('SVC_APP_VIEWS'), 'SVC_APP_VIEWS');
  const template = value('SVC_MAP_TILES_URL');
  return { enabled, ...(template === undefined ? {} : { tiles: tileServer(template) }) };
}

/** A tile URL: http(s), no user info (a secret there would reach every browser), and each of {z}, {x} and {y}. */
function tileServer(template: string): TileServer {
  const name = 'SVC_MAP_TILES_URL';
  let url: URL;
  try {
    url = new URL(template);
  } catch {
    throw new ConfigError(`${name} is not a URL (value not shown)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be http(s)`);
  if (url.username || url.password) throw new ConfigError(`${name} must have no user info (value not shown)`);
  const missing = ['{z}', '{x}', '{y}'].filter((part) => !template.includes(part));
  if (missing.length > 0) throw new ConfigError(`${name} must contain ${missing.join(', ')}`);
  return { template, origin: url.origin };
}

function boolean(text: string, name: string): boolean {
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${text}"`);
}

/** One of the table's choices, in the table's spelling; any case is accepted. */
function oneOf(name: ChoiceEnvName, text: string): string {
  const choices = envChoices(name);
  const found = choices.find((choice) => choice.toUpperCase() === text.toUpperCase());
  if (found === undefined) throw new ConfigError(`${name} must be one of ${choices.join(', ')}`);
  return found;
}

function integer(text: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(text)) throw new ConfigError(`${name} must be a whole number, got "${text}"`);
  const n = Number(text);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** A service URL is an origin, optionally with a path prefix for proxies; no query, no fragment. */
function parseOrigin(text: string, name: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The value is not shown: a URL with user info may hold a secret.
    throw new ConfigError(`${name} is not a URL (value not shown)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be http(s)`);
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(
      `${name} must be an origin with an optional path prefix (no query, fragment or user info; value not shown)`,
    );
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}
