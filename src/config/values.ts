import { envChoices, isSecret, type ChoiceEnvName, type EnvName } from './env-variables.js';
import type { Env } from './types.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Shortest secret key accepted (SVC_MCP_AUTH_TOKEN, SVC_MCP_STATE_KEY): 32 random hex characters are 128 bits. */
export const MIN_TOKEN_LENGTH = 32;

/**
 * An MCP Bundle host passes `${user_config.<key>}` through as it is when the user left that setting blank: such a
 * value is unset, so that a call answers "not configured" naming the variable instead of sending the placeholder.
 */
const UNRESOLVED_PLACEHOLDER = /^\$\{user_config\.[^}]*\}$/;

/** A variable's value by the table: blank or unresolved is unset. */
export type Value = (name: EnvName) => string | undefined;

/** Reads variables by the table: blank or unresolved is unset, and the value of a secret is noted in `secrets`. */
export function reader(env: Env): { value: Value; secrets: Set<string> } {
  const secrets = new Set<string>();
  const value = (name: EnvName) => {
    const v = env[name]?.trim();
    if (!v || UNRESOLVED_PLACEHOLDER.test(v)) return undefined;
    if (isSecret(name)) secrets.add(v);
    return v;
  };
  return { value, secrets };
}

/** A comma-separated list, blanks dropped. */
export function list(value: Value, name: EnvName): string[] | undefined {
  return value(name)
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function boolean(text: string, name: string): boolean {
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${text}"`);
}

/** One of the table's choices, in the table's spelling; any case is accepted. */
export function oneOf(name: ChoiceEnvName, text: string): string {
  const choices = envChoices(name);
  const found = choices.find((choice) => choice.toUpperCase() === text.toUpperCase());
  if (found === undefined) throw new ConfigError(`${name} must be one of ${choices.join(', ')}`);
  return found;
}

export function integer(text: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(text)) throw new ConfigError(`${name} must be a whole number, got "${text}"`);
  const n = Number(text);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** What a URL variable refuses, each with the words that say so after the variable's name. */
export interface UrlRules {
  /** Anything but http(s). */
  notHttp?: string;
  /** A query or a fragment. */
  withQuery?: string;
  /** A user name or password. */
  withUserInfo?: string;
}

/**
 * The one URL check. The value is never shown: a URL with user info may hold a secret. Parts are checked in the
 * order of UrlRules.
 */
export function checkedUrl(name: EnvName, text: string, rules: UrlRules): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${name} is not a URL (value not shown)`);
  }
  const refuse = (why: string | undefined, when: boolean) => {
    if (why !== undefined && when) throw new ConfigError(`${name} ${why}`);
  };
  refuse(rules.notHttp, url.protocol !== 'http:' && url.protocol !== 'https:');
  refuse(rules.withQuery, Boolean(url.search || url.hash));
  refuse(rules.withUserInfo, Boolean(url.username || url.password));
  return url;
}
