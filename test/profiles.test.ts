import { describe, expect, it } from 'vitest';
import { ConfigError, parseCommand, type Config } from '../src/config/index.js';
import {
  loadProfiles,
  parseProfiles,
  selectProfile,
  withProfile,
  type ProfileSources,
} from '../src/config/profiles.js';

const TEAM_A_SECRET = 'team-a-secret-Qw8Er5Ty';
const TEAM_B_SECRET = 'team-b-secret-Zx2Cv7Bn';
const FILE_SECRET = 'file-secret-Lk9Jh3Gf';

const sources = (env: Record<string, string> = {}, files: Record<string, string> = {}): ProfileSources => ({
  env: { TEAM_A_SECRET, TEAM_B_SECRET, ...env },
  readFile: (path) => {
    if (!(path in files)) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
    return files[path]!;
  },
});

const TWO_TEAMS = {
  profiles: {
    'team-a': {
      SVC_GATEWAY_URL: 'https://a.example.com',
      SVC_ACCESS_KEY: 'team-a-access',
      SVC_SECRET_KEY: { env: 'TEAM_A_SECRET' },
      SVC_STREAMING_REGION: 'JPN',
    },
    'team-b': {
      SVC_ACCESS_KEY: 'team-b-access',
      SVC_SECRET_KEY: { env: 'TEAM_B_SECRET' },
      SVC_STUDIO_API_KEY: { file: '/run/secrets/studio' },
      SVC_STUDIO_GATEWAY_KEY: { env: 'TEAM_B_SECRET' },
      SVC_READ_ONLY: 'true',
      SVC_SERVICES: 'streaming,textgen',
    },
  },
  select: {
    claim: 'groups',
    rules: [
      { value: 'team-a', profile: 'team-a' },
      { value: 'team-b', profile: 'team-b' },
    ],
  },
};

/** The message of the ConfigError `run` throws. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('no ConfigError');
}

describe('parseProfiles', () => {
  const parsed = parseProfiles(
    JSON.stringify(TWO_TEAMS),
    sources({ SVC_GATEWAY_URL: 'https://env.example.com' }, { '/run/secrets/studio': `${FILE_SECRET}\n` }),
  );

  it("reads each profile's keys, secrets from the environment or a file", () => {
    const a = parsed.byName.get('team-a')!;
    expect(a.platform.credentials.gateway).toEqual({ accessKey: 'team-a-access', secretKey: TEAM_A_SECRET });
    expect(a.platform.streamingRegion).toBe('JPN');
    const b = parsed.byName.get('team-b')!;
    expect(b.platform.credentials.studio).toEqual({ apiKey: FILE_SECRET, gatewayKey: TEAM_B_SECRET });
    expect(parsed.secrets).toEqual(expect.arrayContaining([TEAM_A_SECRET, TEAM_B_SECRET, FILE_SECRET]));
  });

  it("takes the environment's URLs only for a profile that names none, and never its keys", () => {
    expect(parsed.byName.get('team-a')!.platform.serviceUrls.kms).toBe('https://a.example.com');
    expect(parsed.byName.get('team-b')!.platform.serviceUrls.kms).toBe('https://env.example.com');
    const withEnvKeys = parseProfiles(
      JSON.stringify({ profiles: { bare: { SVC_GATEWAY_URL: 'https://x.example.com' } } }),
      sources({ SVC_ACCESS_KEY: 'env-access', SVC_SECRET_KEY: 'env-secret' }),
    );
    expect(withEnvKeys.byName.get('bare')!.platform.credentials.gateway).toBeUndefined();
  });

  it('reads the narrowing of a profile', () => {
    expect(parsed.byName.get('team-b')!.narrowing).toEqual({ readOnly: true, services: ['streaming', 'textgen'] });
    expect(parsed.byName.get('team-a')!.narrowing).toEqual({ readOnly: false });
  });

  it.each([
    ['not JSON', '{', 'SVC_PROFILES_FILE: the file: is not valid JSON'],
    ['no profiles', '{"profiles": {}}', '"profiles"'],
    ['an unknown member', '{"profiles": {"a": {}}, "extra": 1}', '"extra"'],
    [
      'a literal secret',
      JSON.stringify({ profiles: { a: { SVC_SECRET_KEY: 'literal-secret-value' } } }),
      'profile "a", SVC_SECRET_KEY: a secret is {"env": "NAME"} or {"file": "PATH"}',
    ],
    [
      'a variable a profile may not set',
      JSON.stringify({ profiles: { a: { SVC_MCP_AUTH_TOKEN: 'x' } } }),
      'profile "a", SVC_MCP_AUTH_TOKEN: is not a variable a profile may set',
    ],
    [
      'a secret from an unset variable',
      JSON.stringify({ profiles: { a: { SVC_SECRET_KEY: { env: 'NOT_SET' } } } }),
      'profile "a", SVC_SECRET_KEY: the environment variable NOT_SET it names is not set',
    ],
    [
      'a secret from a missing file',
      JSON.stringify({ profiles: { a: { SVC_SECRET_KEY: { file: '/nowhere' } } } }),
      'profile "a", SVC_SECRET_KEY: the file it names cannot be read (ENOENT)',
    ],
    [
      'half a key pair',
      JSON.stringify({ profiles: { a: { SVC_ACCESS_KEY: 'only-access' } } }),
      'profile "a": SVC_SECRET_KEY must be set together with SVC_ACCESS_KEY',
    ],
    [
      'a bad URL',
      JSON.stringify({ profiles: { a: { SVC_GATEWAY_URL: 'ftp://user:pw@host' } } }),
      'profile "a": SVC_GATEWAY_URL must be http(s)',
    ],
    [
      'an unknown tool',
      JSON.stringify({ profiles: { a: { SVC_TOOLS: 'no_such_tool' } } }),
      'profile "a": unknown tool in SVC_TOOLS: no_such_tool',
    ],
    [
      'a rule naming no profile',
      JSON.stringify({ profiles: { a: {} }, select: { claim: 'groups', rules: [{ value: 'x', profile: 'b' }] } }),
      '"select.rules[0]".profile: names no profile of this file (profiles: a)',
    ],
    [
      'a default naming no profile',
      JSON.stringify({ profiles: { a: {} }, default: 'b' }),
      '"default": names no profile',
    ],
  ])('refuses %s, naming the profile and the field', (_what, text, expected) => {
    const message = refusal(() => parseProfiles(text, sources()));
    expect(message).toContain(expected);
    for (const value of ['literal-secret-value', 'only-access', 'user:pw', TEAM_A_SECRET]) {
      expect(message).not.toContain(value);
    }
  });
});

describe('selectProfile', () => {
  const profiles = parseProfiles(JSON.stringify(TWO_TEAMS), sources({}, { '/run/secrets/studio': FILE_SECRET }));

  it('picks by the first rule whose value the claim holds, as a list or a string', () => {
    expect(selectProfile(profiles, { groups: ['other', 'team-b'] })).toBe('team-b');
    expect(selectProfile(profiles, { groups: ['team-b', 'team-a'] })).toBe('team-a');
    expect(selectProfile(profiles, { groups: 'team-a' })).toBe('team-a');
  });

  it('picks none without a match and without a default; the default otherwise', () => {
    expect(selectProfile(profiles, { groups: ['other'] })).toBeUndefined();
    expect(selectProfile(profiles, {})).toBeUndefined();
    expect(selectProfile({ ...profiles, default: 'team-a' }, { groups: ['other'] })).toBe('team-a');
  });

  it('reads a dotted claim as a path when no claim has that name', () => {
    const roles = { ...profiles, select: { claim: 'realm_access.roles', rules: [{ value: 'b', profile: 'team-b' }] } };
    expect(selectProfile(roles, { realm_access: { roles: ['b'] } })).toBe('team-b');
    expect(selectProfile(roles, { 'realm_access.roles': 'b' })).toBe('team-b');
  });
});

describe('loadProfiles', () => {
  const file = JSON.stringify({ ...TWO_TEAMS, default: 'team-a' });
  const files = { '/etc/profiles.json': file, '/run/secrets/studio': FILE_SECRET };
  const config = (argv: string[], env: Record<string, string> = {}): Config => {
    const command = parseCommand(argv, { SVC_PROFILES_FILE: '/etc/profiles.json', ...env });
    if (command.kind !== 'serve') throw new Error('not serve');
    return loadProfiles(command.config, sources(env, files));
  };

  it('applies the profile --profile names: its keys, Region and narrowing; every secret is known', () => {
    const loaded = config(['--profile', 'team-b', '--tools', 'textgen_create_completion,kms_migrate_key']);
    expect(loaded.profile).toBe('team-b');
    expect(loaded.credentials.gateway?.accessKey).toBe('team-b-access');
    expect(loaded.safety.readOnly).toBe(true);
    expect(loaded.safety.tools).toEqual(['textgen_create_completion', 'kms_migrate_key']);
    expect(loaded.safety.services).toEqual(['streaming', 'textgen']);
    expect(loaded.secrets).toEqual(expect.arrayContaining([TEAM_A_SECRET, TEAM_B_SECRET, FILE_SECRET]));
  });

  it('takes SVC_PROFILE, else the default', () => {
    expect(config([], { SVC_PROFILE: 'team-b' }).profile).toBe('team-b');
    expect(config([]).profile).toBe('team-a');
  });

  it('refuses an unknown profile, naming it', () => {
    expect(refusal(() => config(['--profile', 'team-c']))).toBe(
      'no profile named "team-c" in SVC_PROFILES_FILE (profiles: team-a, team-b)',
    );
  });

  it('refuses --profile without a file, and in OAuth mode', () => {
    expect(refusal(() => parseCommand(['--profile', 'x'], {}))).toContain('SVC_PROFILES_FILE is not set');
    const oauth = {
      SVC_PROFILES_FILE: '/etc/profiles.json',
      SVC_MCP_OAUTH_ISSUER: 'https://as.example.com',
      SVC_MCP_PUBLIC_URL: 'https://mcp.example.com/mcp',
    };
    expect(refusal(() => parseCommand(['--http', '--profile', 'team-a'], oauth))).toContain('not used in OAuth mode');
  });

  it('keeps every profile in OAuth mode, for the tokens to pick from', () => {
    const command = parseCommand(['--http'], {
      SVC_PROFILES_FILE: '/etc/profiles.json',
      SVC_MCP_OAUTH_ISSUER: 'https://as.example.com',
      SVC_MCP_PUBLIC_URL: 'https://mcp.example.com/mcp',
    });
    if (command.kind !== 'serve') throw new Error('not serve');
    const loaded = loadProfiles(command.config, sources({}, files));
    expect(loaded.profile).toBeUndefined();
    expect([...loaded.http.oauth!.profiles!.byName.keys()]).toEqual(['team-a', 'team-b']);
  });

  it('narrows only: a profile cannot lift the read-only mode of the server', () => {
    const base = config([]);
    const lifted = withProfile(
      { ...base, safety: { ...base.safety, readOnly: true } },
      base.profiles!.byName.get('team-a')!,
    );
    expect(lifted.safety.readOnly).toBe(true);
  });
});
