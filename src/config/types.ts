import type { ServiceId } from '../catalogue/types.js';
import type { StreamingRegion } from '../catalogue/fields.js';
import type { TelemetryOptions } from './telemetry-options.js';

/** An environment as read: the process's, or the one a credential profile describes. */
export type Env = Readonly<Record<string, string | undefined>>;

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

/** The key pairs as the environment gives them; the platform client signs with them (same shapes, its own types). */
export interface Credentials {
  gateway?: { accessKey: string; secretKey: string };
  /** Application key pairs per service that uses them (E3 translation, E5 maps). */
  appKeys: Partial<Record<'translation' | 'maps', { clientId: string; clientSecret: string }>>;
  studio?: { apiKey: string; gatewayKey: string };
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
interface Limits {
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

/** What reaches the platform, read from one environment (the process's, or a profile's). */
export type PlatformSettings = Pick<Config, 'serviceUrls' | 'credentials' | 'streamingRegion'>;

/** One team's (or one account's) platform keys and URLs, and the tool filters that narrow what it may do. */
export interface Profile {
  name: string;
  platform: PlatformSettings;
  narrowing: Pick<SafetyOptions, 'readOnly' | 'tools' | 'services'>;
  /** The values of its secrets (never literals in the file: read from the environment or a file). */
  secrets: readonly string[];
}

/** Which profile a token's claim picks: the first rule whose value the claim holds. */
export interface ProfileSelect {
  claim: string;
  rules: readonly { value: string; profile: string }[];
}

export interface Profiles {
  byName: ReadonlyMap<string, Profile>;
  select?: ProfileSelect;
  /** The profile of a token no rule picks (OAuth), or of a process that names none; unset: such a token is refused. */
  default?: string;
  /** Every profile's secrets: the egress filter knows them all. */
  secrets: readonly string[];
}
