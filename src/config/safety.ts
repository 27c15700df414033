import { SERVICES } from '../catalogue/types.js';
import TOOL_DEFINITIONS from '../generated/tool-definitions.json' with { type: 'json' };
import { envDefault, envName, type EnvName } from './env-variables.js';
import { flagName, type Flags } from './flags.js';
import { ConfigError, MIN_TOKEN_LENGTH, boolean, reader, type Value } from './values.js';
import type { Env, SafetyOptions } from './types.js';

/** Every tool the server has: what --tools and SVC_TOOLS may name. */
export const TOOL_NAMES: readonly string[] = Object.keys(TOOL_DEFINITIONS);

/** The flag wins over its variable; names are checked here, so that a typo stops the start (exit 2), not a call. */
export function safetyOptions(flags: Flags, value: Value, env: Env): SafetyOptions {
  const names = <T extends string>(
    flag: string | undefined,
    source: { flag: 'tools' | 'services'; variable: EnvName },
    kind: string,
    valid: readonly T[],
  ) => {
    const text = flag ?? value(source.variable);
    if (text === undefined) return undefined;
    const named = flag !== undefined ? flagName(source.flag) : source.variable;
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
      throw new ConfigError(`unknown ${kind} in ${named}: ${unknown.join(', ')}; valid: ${valid.join(', ')}`);
    if (list.length === 0) throw new ConfigError(`${named} names no ${kind}; valid: ${valid.join(', ')}`);
    return list as T[];
  };
  const flag = (name: 'SVC_READ_ONLY' | 'SVC_CONFIRM_DESTRUCTIVE', on: boolean | undefined, whenOn: boolean) =>
    on === true ? whenOn : boolean(value(name) ?? envDefault(name), name);
  const key = envName('SVC_MCP_STATE_KEY');
  return {
    readOnly: flag('SVC_READ_ONLY', flags['read-only'], true),
    tools: names(flags.tools, { flag: 'tools', variable: 'SVC_TOOLS' }, 'tool', TOOL_NAMES),
    services: names(flags.services, { flag: 'services', variable: 'SVC_SERVICES' }, 'service', SERVICES),
    confirmDestructive: flag('SVC_CONFIRM_DESTRUCTIVE', flags['no-confirm'], false),
    stateKey: stateKey(env[key], value(key)),
  };
}

/** The tool filters of an environment (a credential profile's): each can only take tools away. */
export function narrowingFrom(env: Env): Pick<SafetyOptions, 'readOnly' | 'tools' | 'services'> {
  const { value } = reader(env);
  const { readOnly, tools, services } = safetyOptions({}, value, {});
  return { readOnly, ...(tools ? { tools } : {}), ...(services ? { services } : {}) };
}

/**
 * The HMAC key must be as strong as a token: the SDK's codec needs 32 bytes. Set but unusable (empty, blank, an
 * unresolved `${...}`) stops the start: taken as unset, it would become a random key per process, and replicas would
 * refuse each other's confirmations without a word.
 */
function stateKey(raw: string | undefined, text: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const name = envName('SVC_MCP_STATE_KEY');
  const fix = 'set a key of 32 bytes or more (`openssl rand -hex 32`), or leave the variable unset';
  if (raw.trim() === '') throw new ConfigError(`${name} is set but empty: ${fix}`);
  if (/\$\{[^}]*\}/.test(raw)) {
    throw new ConfigError(`${name} holds an unresolved placeholder (\${...}): ${fix}`);
  }
  if (text !== undefined && Buffer.byteLength(text, 'utf8') < MIN_TOKEN_LENGTH) {
    throw new ConfigError(
      `${name} must be at least ${MIN_TOKEN_LENGTH} bytes (it has ${Buffer.byteLength(text, 'utf8')}): generate one with \`openssl rand -hex 32\``,
    );
  }
  return text;
}
