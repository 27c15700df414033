import { ConfigError } from './values.js';
import { platformFrom } from './platform.js';
import { narrowingFrom } from './safety.js';
import type { Config, Env, Profile, ProfileSelect, Profiles } from './types.js';
import { envName, profileVariables, serviceUrlVariable } from './env-variables.js';
import { flagName } from './flags.js';
import { SERVICES } from '../catalogue/types.js';

/** What reading a secret's `{"env": NAME}` or `{"file": PATH}` needs: the process's environment and file system. */
export interface ProfileSources {
  env: Env;
  readFile(path: string): string;
}

const FILE = envName('SVC_PROFILES_FILE');
const REGION = envName('SVC_STREAMING_REGION');
const URL_VARIABLES = new Set<string>([envName('SVC_GATEWAY_URL'), ...SERVICES.map(serviceUrlVariable)]);

/**
 * Reads a profiles file (the fixed format of SVC_PROFILES_FILE). Every error names the file, the profile and the
 * field, never a value. URLs and the Region a profile does not set are the environment's (a profile that names any
 * URL uses only its own); keys never are: a profile without a key pair has that service not configured.
 */
export function parseProfiles(text: string, sources: ProfileSources, file: string = FILE): Profiles {
  const fail = (where: string, why: string): never => {
    throw new ConfigError(`${file}: ${where}: ${why}`);
  };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail('the file', 'is not valid JSON');
  }
  if (!isObject(json)) return fail('the file', 'must hold a JSON object');
  for (const key of Object.keys(json)) {
    if (!['profiles', 'select', 'default'].includes(key))
      fail(`"${key}"`, 'is not a member (profiles, select, default)');
  }
  if (!isObject(json.profiles) || Object.keys(json.profiles).length === 0)
    fail('"profiles"', 'must be an object of at least one named profile');
  const allowed = profileVariables();
  const byName = new Map<string, Profile>();
  for (const [name, body] of Object.entries(json.profiles as Record<string, unknown>)) {
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(name))
      fail(`profile "${name.slice(0, 64)}"`, 'a name is 1 to 64 letters, digits, ".", "_" or "-"');
    byName.set(name, readProfile(name, body, allowed, sources, fail));
  }
  const named = (value: unknown, where: string): string => {
    if (typeof value !== 'string' || !byName.has(value))
      return fail(where, `names no profile of this file (profiles: ${[...byName.keys()].join(', ')})`);
    return value;
  };
  const select = json.select === undefined ? undefined : readSelect(json.select, named, fail);
  const defaultName = json.default === undefined ? undefined : named(json.default, '"default"');
  return {
    byName,
    ...(select ? { select } : {}),
    ...(defaultName ? { default: defaultName } : {}),
    secrets: [...new Set([...byName.values()].flatMap((p) => p.secrets))],
  };
}

function readProfile(
  name: string,
  body: unknown,
  allowed: ReturnType<typeof profileVariables>,
  sources: ProfileSources,
  fail: (where: string, why: string) => never,
): Profile {
  const where = (field?: string) => (field ? `profile "${name}", ${field}` : `profile "${name}"`);
  if (!isObject(body)) return fail(where(), 'must be an object of variable names and values');
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    const row = allowed.get(key);
    if (!row) fail(where(key), `is not a variable a profile may set (see ${FILE} in ${flagName('help')})`);
    if (row!.secret) env[key] = secretValue(value, sources, (why) => fail(where(key), why));
    else if (typeof value === 'string') env[key] = value;
    else fail(where(key), 'must be a string');
  }
  const ownUrls = Object.keys(env).some((key) => URL_VARIABLES.has(key));
  const inherited = Object.fromEntries(
    Object.entries(sources.env).filter(
      ([key]) => (!ownUrls && URL_VARIABLES.has(key)) || (key === REGION && !(key in env)),
    ),
  );
  try {
    const { secrets, ...platform } = platformFrom({ ...inherited, ...env });
    return { name, platform, narrowing: narrowingFrom(env), secrets };
  } catch (error) {
    // The parser's message names the variable, never its value (values.ts).
    if (error instanceof ConfigError) return fail(where(), error.message);
    throw error;
  }
}

/** A secret is never written into the file: `{"env": "NAME"}` or `{"file": "PATH"}`. */
function secretValue(value: unknown, sources: ProfileSources, fail: (why: string) => never): string {
  const shape = 'a secret is {"env": "NAME"} or {"file": "PATH"}, never the value itself';
  if (!isObject(value) || Object.keys(value).length !== 1) return fail(shape);
  if (typeof value.env === 'string') {
    const found = sources.env[value.env]?.trim();
    if (!found) return fail(`the environment variable ${value.env} it names is not set`);
    return found;
  }
  if (typeof value.file === 'string') {
    let text: string;
    try {
      text = sources.readFile(value.file);
    } catch (error) {
      return fail(`the file it names cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    // A file written by `echo` ends with a newline that is no part of the key.
    const trimmed = text.replace(/\r?\n$/, '');
    if (!trimmed) return fail('the file it names is empty');
    return trimmed;
  }
  return fail(shape);
}

function readSelect(
  value: unknown,
  named: (value: unknown, where: string) => string,
  fail: (where: string, why: string) => never,
): ProfileSelect {
  if (!isObject(value)) return fail('"select"', 'must be {"claim": "<claim>", "rules": [...]}');
  if (typeof value.claim !== 'string' || value.claim === '') fail('"select.claim"', 'must name a claim of the token');
  if (!Array.isArray(value.rules) || value.rules.length === 0)
    fail('"select.rules"', 'must be a list of {"value": "<claim value>", "profile": "<name>"}');
  const rules = (value.rules as unknown[]).map((rule, i) => {
    const where = `"select.rules[${i}]"`;
    if (!isObject(rule) || typeof rule.value !== 'string')
      return fail(where, 'must be {"value": "...", "profile": "..."}');
    return { value: rule.value, profile: named(rule.profile, `${where}.profile`) };
  });
  return { claim: value.claim as string, rules };
}

/**
 * The profile a token's claims pick: the first rule whose value the claim equals (or, for a list such as `groups`,
 * holds); else the default. A claim name is looked up whole first, then as a dotted path (Keycloak's
 * `realm_access.roles`).
 */
export function selectProfile(profiles: Profiles, claims: Readonly<Record<string, unknown>>): string | undefined {
  const select = profiles.select;
  if (select) {
    const held = claimValues(claims, select.claim);
    const rule = select.rules.find((r) => held.includes(r.value));
    if (rule) return rule.profile;
  }
  return profiles.default;
}

function claimValues(claims: Readonly<Record<string, unknown>>, claim: string): string[] {
  let value: unknown = claims[claim];
  if (value === undefined && claim.includes('.')) {
    value = claim.split('.').reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), claims);
  }
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/** The process's config as one profile makes it: its platform settings, and the tool filters narrowed by its own. */
export function withProfile(config: Config, profile: Profile): Config {
  const { readOnly, tools, services } = profile.narrowing;
  const intersect = <T>(a: readonly T[] | undefined, b: readonly T[] | undefined): T[] | undefined =>
    a && b ? a.filter((x) => b.includes(x)) : a || b ? [...(a ?? b)!] : undefined;
  const narrowedTools = intersect(config.safety.tools, tools);
  const narrowedServices = intersect(config.safety.services, services);
  return {
    ...config,
    ...profile.platform,
    profile: profile.name,
    safety: {
      ...config.safety,
      readOnly: config.safety.readOnly || readOnly,
      ...(narrowedTools ? { tools: narrowedTools } : {}),
      ...(narrowedServices ? { services: narrowedServices } : {}),
    },
  };
}

/**
 * The config with its profiles read: in OAuth mode all of them, for the tokens to pick from (a `select` or a
 * `default` is required); otherwise the one --profile / SVC_PROFILE names, or the file's default.
 */
export function loadProfiles(config: Config, sources: ProfileSources): Config {
  if (config.profilesFile === undefined) return config;
  let text: string;
  try {
    text = sources.readFile(config.profilesFile);
  } catch (error) {
    throw new ConfigError(
      `${FILE} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); path not shown`,
    );
  }
  const profiles = parseProfiles(text, sources);
  const secrets = [...config.secrets, ...profiles.secrets];
  if (config.http.oauth) {
    if (!profiles.select && !profiles.default)
      throw new ConfigError(`${FILE}: in OAuth mode the file needs "select" (a claim and rules) or "default"`);
    return { ...config, http: { ...config.http, oauth: { ...config.http.oauth, profiles } }, profiles, secrets };
  }
  const name = config.profile ?? profiles.default;
  if (name === undefined) {
    throw new ConfigError(
      `${FILE} is set: choose a profile with ${flagName('profile')} or ${envName('SVC_PROFILE')}, or name a "default" in the file (profiles: ${[...profiles.byName.keys()].join(', ')})`,
    );
  }
  const profile = profiles.byName.get(name);
  if (!profile) {
    throw new ConfigError(
      `no profile named "${name}" in ${FILE} (profiles: ${[...profiles.byName.keys()].join(', ')})`,
    );
  }
  return { ...withProfile(config, profile), profiles, secrets };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
