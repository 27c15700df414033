import type { AuthScheme, ServiceId } from '../catalogue/types.js';
import type { AppKeys, GatewayKeys, StudioKeys } from './auth.js';

/**
 * What the platform client is given, in its own terms: where each service is, the keys it signs with, and the bounds
 * of an exchange. The layer that configures it (flags, environment, credential profiles) fills it in, with the words
 * its messages use for those settings.
 */
export interface ClientSettings {
  /** Origin (optionally with a path prefix) per service; missing means not configured. */
  serviceUrls: Partial<Record<ServiceId, string>>;
  credentials: {
    gateway?: GatewayKeys;
    /** Application key pairs of the services that use them (E3 translation, E5 maps). */
    appKeys: Partial<Record<'translation' | 'maps', AppKeys>>;
    studio?: StudioKeys;
  };
  /** The most one call may take, all attempts together. */
  timeoutMs: number;
  /** The largest answer read; a larger one is cut off unread. */
  maxResponseBytes: number;
  proxy: ProxySettings;
  words: SettingWords;
}

/** Proxies for upstream calls, as HTTP_PROXY, HTTPS_PROXY and NO_PROXY give them. */
interface ProxySettings {
  http?: string;
  https?: string;
  noProxy?: string;
}

/**
 * How the one who runs the server names what the client's messages refer to (a variable, a flag): a failure that
 * says what to change names it as they would set it.
 */
interface SettingWords {
  timeout: string;
  maxResponseBytes: string;
  /** What gives a service its URL. */
  serviceUrl(service: ServiceId): string;
  /** What gives the keys of a scheme, for a service. */
  keys(scheme: AuthScheme, service: ServiceId): string;
  /** Another way to reach a service that is not configured, when there is one (the embedded simulator). */
  otherwise?: string;
}
