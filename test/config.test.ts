/** parseCommand: flags + environment -> one validated Config (pure; argv and env are passed in). */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseCommand, usage, type Config } from '../src/config/index.js';
import { ENV_VARIABLES, namesOf, type EnvVariable } from '../src/config/env-variables.js';
import { SECRET_VARIABLES } from './helpers/secret-variables.js';

const USAGE = usage();

const SERVICES = [
  'streaming',
  'translation',
  'dataflow',
  'maps',
  'apigateway',
  'datacatalog',
  'bigdata',
  'recommendation',
  'textgen',
  'search',
  'kms',
];

function config(argv: string[], env: Record<string, string> = {}): Config {
  const command = parseCommand(argv, env);
  if (command.kind !== 'serve') throw new Error(`expected serve, got ${command.kind}`);
  return command.config;
}

function refused(argv: string[], env: Record<string, string>, message: RegExp): void {
  expect(() => parseCommand(argv, env)).toThrow(ConfigError);
  expect(() => parseCommand(argv, env)).toThrow(message);
}

describe('defaults', () => {
  it('no flag, empty environment: stdio, KR, 30 s, nothing configured', () => {
    const c = config([]);
    expect(c.transport).toBe('stdio');
    expect(c.sandbox).toBe(false);
    expect(c.streamingRegion).toBe('KR');
    expect(c.timeoutMs).toBe(30000);
    expect(c.serviceUrls).toEqual({});
    expect(c.credentials.gateway).toBeUndefined();
    expect(c.credentials.appKeys).toEqual({});
    expect(c.credentials.studio).toBeUndefined();
    expect(c.http.host).toBe('127.0.0.1');
    expect(c.http.port).toBe(3000);
    expect(c.http.stateless).toBe(false);
    expect(c.http.authToken).toBeUndefined();
  });

  it('--help and --version', () => {
    expect(parseCommand(['--help'], {})).toEqual({ kind: 'help' });
    expect(parseCommand(['--version'], {})).toEqual({ kind: 'version' });
  });

  it('--sandbox', () => {
    expect(config(['--sandbox']).sandbox).toBe(true);
  });

  it('an unknown flag is refused', () => {
    refused(['--verbose'], {}, /verbose/);
  });
});

describe('service URLs', () => {
  it('SVC_GATEWAY_URL serves every one of the eleven services', () => {
    const c = config([], { SVC_GATEWAY_URL: 'https://gw.example.com' });
    expect(Object.keys(c.serviceUrls).sort()).toEqual([...SERVICES].sort());
    for (const service of SERVICES)
      expect(c.serviceUrls[service as keyof Config['serviceUrls']]).toBe('https://gw.example.com');
  });

  it('SVC_<SERVICE>_URL overrides one service, with a path prefix kept and a trailing slash dropped', () => {
    const c = config([], {
      SVC_GATEWAY_URL: 'https://gw.example.com/',
      SVC_KMS_URL: 'http://127.0.0.1:8080/proxy/kms/',
      SVC_TEXTGEN_URL: 'https://studio.example.com',
    });
    expect(c.serviceUrls.kms).toBe('http://127.0.0.1:8080/proxy/kms');
    expect(c.serviceUrls.textgen).toBe('https://studio.example.com');
    expect(c.serviceUrls.search).toBe('https://gw.example.com');
  });

  it('a service URL alone configures only that service', () => {
    const c = config([], { SVC_MAPS_URL: 'https://maps.example.com' });
    expect(c.serviceUrls).toEqual({ maps: 'https://maps.example.com' });
  });

  it('blank values count as unset', () => {
    expect(config([], { SVC_GATEWAY_URL: '  ' }).serviceUrls).toEqual({});
  });

  it.each([
    ['not a URL', 'gw.example.com', /SVC_GATEWAY_URL/],
    ['not http(s)', 'ftp://gw.example.com', /SVC_GATEWAY_URL.*http/],
    ['a query', 'https://gw.example.com/?x=1', /SVC_GATEWAY_URL/],
    ['user info', 'https://u:p@gw.example.com', /SVC_GATEWAY_URL/],
  ])('refuses %s', (_, url, message) => {
    refused([], { SVC_GATEWAY_URL: url }, message);
  });

  it('names the per-service variable when that one is wrong', () => {
    refused([], { SVC_GATEWAY_URL: 'https://gw.example.com', SVC_SEARCH_URL: 'nope' }, /SVC_SEARCH_URL/);
  });
});

describe('credentials', () => {
  it('gateway keys, app key pair and studio keys', () => {
    const c = config([], {
      SVC_ACCESS_KEY: 'ak',
      SVC_SECRET_KEY: 'sk',
      SVC_CLIENT_ID: 'cid',
      SVC_CLIENT_SECRET: 'csec',
      SVC_STUDIO_API_KEY: 'stk',
      SVC_STUDIO_GATEWAY_KEY: 'sgk',
    });
    expect(c.credentials.gateway).toEqual({ accessKey: 'ak', secretKey: 'sk' });
    expect(c.credentials.appKeys).toEqual({
      translation: { clientId: 'cid', clientSecret: 'csec' },
      maps: { clientId: 'cid', clientSecret: 'csec' },
    });
    expect(c.credentials.studio).toEqual({ apiKey: 'stk', gatewayKey: 'sgk' });
  });

  it('SVC_TRANSLATION_CLIENT_ID/_SECRET and SVC_MAPS_CLIENT_ID/_SECRET override per service', () => {
    const c = config([], {
      SVC_CLIENT_ID: 'cid',
      SVC_CLIENT_SECRET: 'csec',
      SVC_MAPS_CLIENT_ID: 'mid',
      SVC_MAPS_CLIENT_SECRET: 'msec',
    });
    expect(c.credentials.appKeys).toEqual({
      translation: { clientId: 'cid', clientSecret: 'csec' },
      maps: { clientId: 'mid', clientSecret: 'msec' },
    });
    const onlyTranslation = config([], { SVC_TRANSLATION_CLIENT_ID: 'tid', SVC_TRANSLATION_CLIENT_SECRET: 'tsec' });
    expect(onlyTranslation.credentials.appKeys).toEqual({ translation: { clientId: 'tid', clientSecret: 'tsec' } });
  });

  it.each([
    [{ SVC_ACCESS_KEY: 'ak' }, /SVC_SECRET_KEY/],
    [{ SVC_SECRET_KEY: 'sk' }, /SVC_ACCESS_KEY/],
    [{ SVC_CLIENT_ID: 'cid' }, /SVC_CLIENT_SECRET/],
    [{ SVC_CLIENT_SECRET: 'cs' }, /SVC_CLIENT_ID/],
    [{ SVC_MAPS_CLIENT_ID: 'mid' }, /SVC_MAPS_CLIENT_SECRET/],
    [{ SVC_TRANSLATION_CLIENT_SECRET: 'ts' }, /SVC_TRANSLATION_CLIENT_ID/],
    [{ SVC_STUDIO_API_KEY: 'k' }, /SVC_STUDIO_GATEWAY_KEY/],
    [{ SVC_STUDIO_GATEWAY_KEY: 'k' }, /SVC_STUDIO_API_KEY/],
  ])('pair variables come together: %j', (env, message) => {
    refused([], env, message);
  });

  it('the refusal never shows the secret value', () => {
    try {
      parseCommand([], { SVC_SECRET_KEY: 'very-secret-value-123' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain('very-secret-value-123');
    }
  });
});

describe('a setting the MCP Bundle host left blank (the literal ${user_config.<key>} placeholder)', () => {
  it('counts as unset: no credential, no URL, the defaults', () => {
    const c = config([], {
      SVC_GATEWAY_URL: '${user_config.gateway_url}',
      SVC_ACCESS_KEY: '${user_config.access_key}',
      SVC_SECRET_KEY: ' ${user_config.secret_key} ',
      SVC_CLIENT_ID: '${user_config.client_id}',
      SVC_CLIENT_SECRET: '${user_config.client_secret}',
      SVC_STUDIO_API_KEY: '${user_config.studio_api_key}',
      SVC_STUDIO_GATEWAY_KEY: '${user_config.studio_gateway_key}',
      SVC_STREAMING_REGION: '${user_config.streaming_region}',
      SVC_TIMEOUT_MS: '${user_config.timeout_ms}',
      SVC_READ_ONLY: '${user_config.read_only}',
      SVC_CONFIRM_DESTRUCTIVE: '${user_config.confirm_destructive}',
      SVC_SERVICES: '${user_config.services}',
      SVC_TOOLS: '${user_config.tools}',
    });
    expect(c.serviceUrls).toEqual({});
    expect(c.credentials).toEqual({ gateway: undefined, appKeys: {}, studio: undefined });
    expect([c.streamingRegion, c.timeoutMs]).toEqual(['KR', 30000]);
    expect(c.safety).toEqual({
      readOnly: false,
      tools: undefined,
      services: undefined,
      confirmDestructive: true,
      stateKey: undefined,
    });
  });

  it('one key of a pair left blank is a missing half, named as such', () => {
    refused(
      [],
      { SVC_ACCESS_KEY: 'ak', SVC_SECRET_KEY: '${user_config.secret_key}' },
      /^SVC_SECRET_KEY must be set together with SVC_ACCESS_KEY$/,
    );
  });

  it('only a whole placeholder: a value that merely contains one is used as it is', () => {
    const c = config([], { SVC_ACCESS_KEY: 'ak-${user_config.x}', SVC_SECRET_KEY: '${user_config.secret_key}x' });
    expect(c.credentials.gateway).toEqual({
      accessKey: 'ak-${user_config.x}',
      secretKey: '${user_config.secret_key}x',
    });
  });
});

describe('region and timeout', () => {
  it.each([
    ['KR', 'KR'],
    ['SGN', 'SGN'],
    ['jpn', 'JPN'],
  ])('SVC_STREAMING_REGION=%s -> %s', (value, region) => {
    expect(config([], { SVC_STREAMING_REGION: value }).streamingRegion).toBe(region);
  });

  it.each(['US', 'sgn-v1', 'KOREA'])('refuses SVC_STREAMING_REGION=%s', (value) => {
    refused([], { SVC_STREAMING_REGION: value }, /SVC_STREAMING_REGION.*KR, SGN, JPN/);
  });

  it('SVC_TIMEOUT_MS', () => {
    expect(config([], { SVC_TIMEOUT_MS: '1500' }).timeoutMs).toBe(1500);
  });

  it.each(['abc', '0', '-5', '1.5', '600001', '30s'])('refuses SVC_TIMEOUT_MS=%s', (value) => {
    refused([], { SVC_TIMEOUT_MS: value }, /SVC_TIMEOUT_MS/);
  });
});

describe('safety: read-only mode, filters, confirmation', () => {
  it('defaults: every tool, destructive calls confirmed', () => {
    expect(config([]).safety).toEqual({
      readOnly: false,
      tools: undefined,
      services: undefined,
      confirmDestructive: true,
    });
  });

  it('flags and variables', () => {
    expect(config(['--read-only']).safety.readOnly).toBe(true);
    expect(config([], { SVC_READ_ONLY: 'true' }).safety.readOnly).toBe(true);
    expect(config([], { SVC_READ_ONLY: 'FALSE' }).safety.readOnly).toBe(false);
    expect(config(['--no-confirm']).safety.confirmDestructive).toBe(false);
    expect(config([], { SVC_CONFIRM_DESTRUCTIVE: 'false' }).safety.confirmDestructive).toBe(false);
    expect(
      config(['--tools', ' kms_migrate_key , search_list_tokenizer_languages,kms_migrate_key']).safety.tools,
    ).toEqual(['kms_migrate_key', 'search_list_tokenizer_languages']);
    expect(config([], { SVC_SERVICES: 'kms,search' }).safety.services).toEqual(['kms', 'search']);
    // The flag wins over its variable.
    expect(config(['--services', 'maps'], { SVC_SERVICES: 'kms' }).safety.services).toEqual(['maps']);
  });

  it('refuses an unknown tool or service in one line that lists the valid names', () => {
    refused(
      ['--tools', 'kms_migrate_key,kms_delete_key'],
      {},
      /^unknown tool in --tools: kms_delete_key; valid: streaming_list_config_groups, .*translate_and_summarize$/,
    );
    refused([], { SVC_TOOLS: 'nope' }, /^unknown tool in SVC_TOOLS: nope; valid: /);
    refused(
      ['--services', 'kms,KMS'],
      {},
      /^unknown service in --services: KMS; valid: streaming, translation, .*, kms$/,
    );
    refused([], { SVC_SERVICES: ',' }, /^SVC_SERVICES names no service; valid: streaming, /);
    refused([], { SVC_READ_ONLY: 'yes please' }, /SVC_READ_ONLY must be true or false/);
  });
});

describe('--http', () => {
  it('defaults to 127.0.0.1:3000', () => {
    const c = config(['--http']);
    expect(c.transport).toBe('http');
    expect(c.http.host).toBe('127.0.0.1');
    expect(c.http.port).toBe(3000);
  });

  it('--host, --port and --stateless', () => {
    const c = config(['--http', '--host', 'localhost', '--port', '8123', '--stateless']);
    expect(c.http).toMatchObject({ host: 'localhost', port: 8123, stateless: true });
  });

  it.each(['0.0.0.0', '192.168.1.20', 'example.com', '::'])(
    'refuses non-loopback %s without SVC_MCP_AUTH_TOKEN',
    (host) => {
      refused(['--http', '--host', host], {}, /SVC_MCP_AUTH_TOKEN/);
    },
  );

  it('binds beyond loopback with SVC_MCP_AUTH_TOKEN', () => {
    const token = 'tok-'.padEnd(32, '7');
    const c = config(['--http', '--host', '0.0.0.0'], { SVC_MCP_AUTH_TOKEN: token });
    expect(c.http.host).toBe('0.0.0.0');
    expect(c.http.authToken).toBe(token);
  });

  it.each(['0.0.0.0', '127.0.0.1'])('refuses a SVC_MCP_AUTH_TOKEN under 32 characters on %s, in one line', (host) => {
    for (const token of ['x', 'a'.repeat(31)]) {
      refused(
        ['--http', '--host', host],
        { SVC_MCP_AUTH_TOKEN: token },
        /^SVC_MCP_AUTH_TOKEN must be at least 32 characters \(it has \d+\): generate one with `openssl rand -hex 32`$/,
      );
    }
    expect(config(['--http', '--host', host], { SVC_MCP_AUTH_TOKEN: 'a'.repeat(32) }).http.authToken).toHaveLength(32);
    // Without --http the token is not used, and not checked.
    expect(config([], { SVC_MCP_AUTH_TOKEN: 'x' }).transport).toBe('stdio');
  });

  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1'])('loopback %s needs no token', (host) => {
    expect(config(['--http', '--host', host]).http.host).toBe(host);
  });

  it.each(['70000', '-1', 'http'])('refuses --port %s', (port) => {
    refused(['--http', '--port', port], {}, /--port/);
  });

  it('HTTP limits and the shutdown grace period from the environment, with defaults', () => {
    expect(config(['--http']).http).toMatchObject({
      maxSessions: 100,
      maxSessionsPerClient: 10,
      sessionIdleMs: 600_000,
      maxBodyBytes: 4_194_304,
      requestTimeoutMs: 30_000,
      maxConnections: 1000,
      maxUnreadBytes: 1_048_576,
    });
    expect(config(['--http']).shutdownGraceMs).toBe(10_000);
    const c = config(['--http'], {
      SVC_MCP_MAX_SESSIONS: '7',
      SVC_MCP_SESSION_IDLE_MS: '60000',
      SVC_MCP_MAX_BODY_BYTES: '2048',
      SVC_MCP_SHUTDOWN_GRACE_MS: '0',
      SVC_MCP_ALLOWED_HOSTS: 'mcp.example.com, proxy.internal:8443',
    });
    expect(c.http).toMatchObject({ maxSessions: 7, sessionIdleMs: 60_000, maxBodyBytes: 2048 });
    expect(c.shutdownGraceMs).toBe(0);
    expect(c.http.allowedHosts).toEqual(['mcp.example.com', 'proxy.internal:8443']);
    refused(['--http'], { SVC_MCP_SHUTDOWN_GRACE_MS: '-5' }, /SVC_MCP_SHUTDOWN_GRACE_MS/);
    // The grace period is read for stdio too.
    expect(config([], { SVC_MCP_SHUTDOWN_GRACE_MS: '300' }).shutdownGraceMs).toBe(300);
    refused([], { SVC_MCP_SHUTDOWN_GRACE_MS: 'soon' }, /SVC_MCP_SHUTDOWN_GRACE_MS/);
    refused(['--http'], { SVC_MCP_MAX_SESSIONS: '0' }, /SVC_MCP_MAX_SESSIONS/);
    refused(['--http'], { SVC_MCP_MAX_SESSIONS_PER_CLIENT: '0' }, /SVC_MCP_MAX_SESSIONS_PER_CLIENT/);
    refused(
      ['--http'],
      { SVC_MCP_REQUEST_TIMEOUT_MS: '999' },
      /SVC_MCP_REQUEST_TIMEOUT_MS must be between 1000 and 600000/,
    );
    refused(['--http'], { SVC_MCP_MAX_CONNECTIONS: '0' }, /SVC_MCP_MAX_CONNECTIONS/);
    refused(['--http'], { SVC_MCP_MAX_UNREAD_BYTES: '1000' }, /SVC_MCP_MAX_UNREAD_BYTES must be between 65536/);
  });

  it('SVC_MCP_TRUSTED_PROXIES: unset by default; addresses and CIDR blocks; anything else refused in one line', () => {
    expect(config(['--http']).http.trustedProxies).toBeUndefined();
    expect(config(['--http'], { SVC_MCP_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8,::1' }).http.trustedProxies).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
    ]);
    refused(
      ['--http'],
      { SVC_MCP_TRUSTED_PROXIES: '127.0.0.1,nginx.internal' },
      /^SVC_MCP_TRUSTED_PROXIES: "nginx.internal" is not an IP address or CIDR block/,
    );
    refused(['--http'], { SVC_MCP_TRUSTED_PROXIES: '10.0.0.0/40' }, /"10.0.0.0\/40"/);
  });

  it('SVC_MCP_REPLICA_ID: unset by default; 1-32 letters, digits or "-"; anything else refused in one line', () => {
    expect(config(['--http']).http.replicaId).toBeUndefined();
    expect(config(['--http'], { SVC_MCP_REPLICA_ID: ' r1 ' }).http.replicaId).toBe('r1');
    expect(config(['--http'], { SVC_MCP_REPLICA_ID: 'eu-west-2' }).http.replicaId).toBe('eu-west-2');
    expect(config(['--http'], { SVC_MCP_REPLICA_ID: 'A'.repeat(32) }).http.replicaId).toBe('A'.repeat(32));
    for (const id of ['r1.', 'r.1', 'r_1', 'a b', 'r1/x', 'é', 'A'.repeat(33)]) {
      refused(
        ['--http'],
        { SVC_MCP_REPLICA_ID: id },
        /^SVC_MCP_REPLICA_ID must be 1 to 32 letters, digits or "-", got ".*"$/,
      );
    }
  });

  it('--host/--port/--stateless without --http are refused', () => {
    refused(['--port', '8080'], {}, /--http/);
    refused(['--stateless'], {}, /--http/);
  });
});

/** The bounds of every whole number, written out here (src/config/ applies the table of env-variables.ts). */
const BOUNDS: Record<string, [number, number]> = {
  SVC_TIMEOUT_MS: [1, 600_000],
  SVC_MAX_CONCURRENT_CALLS: [1, 1000],
  SVC_MAX_QUEUED_CALLS: [0, 100_000],
  SVC_MAX_RESPONSE_BYTES: [1024, 268_435_456],
  SVC_MAX_RESULT_BYTES: [4096, 67_108_864],
  SVC_WORKFLOW_TIMEOUT_MS: [1000, 3_600_000],
  SVC_MCP_SHUTDOWN_GRACE_MS: [0, 600_000],
  SVC_MCP_MAX_SESSIONS: [1, 100_000],
  SVC_MCP_MAX_SESSIONS_PER_CLIENT: [1, 100_000],
  SVC_MCP_SESSION_IDLE_MS: [1000, 86_400_000],
  SVC_MCP_MAX_BODY_BYTES: [1024, 1_073_741_824],
  SVC_MCP_REQUEST_TIMEOUT_MS: [1000, 600_000],
  SVC_MCP_OAUTH_TIMEOUT_MS: [100, 60_000],
  SVC_MCP_MAX_CONNECTIONS: [1, 1_000_000],
  SVC_MCP_MAX_UNREAD_BYTES: [65_536, 1_073_741_824],
  OTEL_METRIC_EXPORT_INTERVAL: [1000, 3_600_000],
};

describe('whole numbers: the bounds of the table', () => {
  it('the table gives these bounds, and only to these variables', () => {
    const ranged = (ENV_VARIABLES as readonly EnvVariable[]).filter((v) => v.range).map((v) => [v.name, v.range]);
    expect(Object.fromEntries(ranged)).toEqual(BOUNDS);
  });

  it.each(Object.entries(BOUNDS))(
    '%s: from %j, both ends included, each side refused naming the variable and the rule',
    (name, [min, max]) => {
      expect(() => config(['--http'], { [name]: String(min) })).not.toThrow();
      expect(() => config(['--http'], { [name]: String(max) })).not.toThrow();
      refused(
        ['--http'],
        { [name]: String(max + 1) },
        new RegExp(`^${name} must be between ${min} and ${max}, got ${max + 1}$`),
      );
      if (min > 0)
        refused(
          ['--http'],
          { [name]: String(min - 1) },
          new RegExp(`^${name} must be between ${min} and ${max}, got ${min - 1}$`),
        );
      refused(['--http'], { [name]: '12abc' }, new RegExp(`^${name} must be a whole number, got "12abc"$`));
    },
  );
});

describe('the secrets the redactor keeps out', () => {
  it('are the values of exactly the variables the table marks secret', () => {
    const env = Object.fromEntries(
      [
        'SVC_ACCESS_KEY',
        'SVC_SECRET_KEY',
        'SVC_CLIENT_ID',
        'SVC_CLIENT_SECRET',
        'SVC_TRANSLATION_CLIENT_ID',
        'SVC_TRANSLATION_CLIENT_SECRET',
        'SVC_MAPS_CLIENT_ID',
        'SVC_MAPS_CLIENT_SECRET',
        'SVC_STUDIO_API_KEY',
        'SVC_STUDIO_GATEWAY_KEY',
        'SVC_MCP_STATE_KEY',
        'SVC_MCP_AUTH_TOKEN',
        'SVC_MCP_ALLOWED_ORIGINS',
        'SVC_MCP_ALLOWED_HOSTS',
        'OTEL_EXPORTER_OTLP_HEADERS',
        'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
        'OTEL_EXPORTER_OTLP_METRICS_HEADERS',
      ].map((name) => [name, `${name.endsWith('_HEADERS') ? 'x=' : ''}value-of-${name}`.padEnd(40, '-')]),
    );
    // A header list is a secret, and so is each value in it.
    const secrets = config(['--http'], env).secrets.map((value) => value.replace(/^(x=)?value-of-|-+$/g, ''));
    expect([...new Set(secrets)].sort()).toEqual([...SECRET_VARIABLES].sort());
    expect(config([]).secrets).toEqual([]);
  });
});

describe('the table of environment variables', () => {
  it('lists exactly the variables parseCommand reads', () => {
    const read = new Set<string>();
    const env = new Proxy({} as Record<string, string>, {
      get: (_, name) => {
        if (typeof name === 'string') read.add(name);
        return undefined;
      },
    });
    parseCommand(['--http'], env);
    const listed = (ENV_VARIABLES as readonly EnvVariable[]).flatMap(namesOf);
    expect([...read].sort()).toEqual(listed.sort());
  });
});

describe('--help', () => {
  const lines = USAGE.split('\n');

  it('keeps the flags and lists every variable with its group', () => {
    expect(USAGE).toContain('  --stateless            HTTP without sessions (for replicas behind a load balancer)');
    for (const v of ENV_VARIABLES as readonly EnvVariable[])
      expect(USAGE, v.name).toMatch(new RegExp(`^    ${v.name}[ ,]`, 'm'));
    const heading = (text: string) => lines.findIndex((line) => line.startsWith(`  ${text}`));
    const at = (name: string) => lines.findIndex((line) => line.startsWith(`    ${name} `));
    expect(heading('Services')).toBeLessThan(at('SVC_TIMEOUT_MS'));
    expect(at('SVC_TIMEOUT_MS')).toBeLessThan(heading('HTTP transport'));
    expect(heading('HTTP transport')).toBeLessThan(at('SVC_MCP_MAX_SESSIONS'));
    expect(at('SVC_MCP_MAX_SESSIONS')).toBeLessThan(heading('Outbound proxy'));
    expect(heading('Outbound proxy')).toBeLessThan(at('NO_PROXY,'));
  });

  it('marks secrets, shows defaults and the lower-case proxy names', () => {
    expect(USAGE).toMatch(/^ {4}SVC_SECRET_KEY \* /m);
    expect(USAGE).toMatch(/^ {4}SVC_ACCESS_KEY {2,}gateway/m);
    expect(USAGE).toContain('default 600000 = 10 min)');
    expect(USAGE).toContain('default 30000 = 30 s)');
    expect(USAGE).toMatch(/^ {4}HTTP_PROXY, http_proxy /m);
    expect(USAGE).toContain('SERVICE: STREAMING, TRANSLATION,');
  });

  it('shows the bounds of whole numbers and the other key of each pair', () => {
    const entry = (name: string) => {
      const at = lines.findIndex((line) => line.startsWith(`    ${name} `));
      const end = lines.findIndex((line, i) => i > at && /^ {2,4}\S/.test(line));
      return lines
        .slice(at, end)
        .map((line) => line.trim())
        .join(' ');
    };
    expect(entry('SVC_TIMEOUT_MS')).toMatch(/\(1 to 600000; default 30000 = 30 s\)$/);
    expect(entry('SVC_MCP_SHUTDOWN_GRACE_MS')).toMatch(/\(0 to 600000; default 10000 = 10 s\)$/);
    expect(entry('SVC_MCP_MAX_UNREAD_BYTES')).toMatch(/\(65536 to 1073741824; default 1048576 = 1 MiB\)$/);
    expect(entry('SVC_ACCESS_KEY')).toMatch(/\(set with SVC_SECRET_KEY\)$/);
    expect(entry('SVC_SECRET_KEY *')).toMatch(/\(set with SVC_ACCESS_KEY\)$/);
    expect(entry('SVC_MAPS_CLIENT_ID')).toMatch(/\(set with SVC_MAPS_CLIENT_SECRET\)$/);
    expect(entry('SVC_STUDIO_GATEWAY_KEY *')).toMatch(/\(set with SVC_STUDIO_API_KEY\)$/);
    expect(entry('SVC_GATEWAY_URL')).not.toMatch(/set with|\bto\b \d/);
  });

  it('fits in 100 columns', () => {
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(100);
  });
});

describe('app views', () => {
  it('are on by default, with no tile server', () => {
    expect(config([]).appViews).toEqual({ enabled: true });
  });

  it('are off with --no-app-views or SVC_APP_VIEWS=false (the flag wins)', () => {
    expect(config(['--no-app-views']).appViews.enabled).toBe(false);
    expect(config([], { SVC_APP_VIEWS: 'false' }).appViews.enabled).toBe(false);
    expect(config(['--no-app-views'], { SVC_APP_VIEWS: 'true' }).appViews.enabled).toBe(false);
    refused([], { SVC_APP_VIEWS: 'maybe' }, /^SVC_APP_VIEWS must be true or false, got "maybe"$/);
  });

  it('take a tile server whose origin the view declares', () => {
    const template = 'https://tiles.example.org/osm/{z}/{x}/{y}.png';
    expect(config([], { SVC_MAP_TILES_URL: template }).appViews.tiles).toEqual({
      template,
      origin: 'https://tiles.example.org',
    });
  });

  it('refuse a tile URL that is no http(s) URL, holds user info, or lacks {z}, {x} or {y}', () => {
    const refusedTiles = (url: string, message: RegExp) => refused([], { SVC_MAP_TILES_URL: url }, message);
    refusedTiles('tiles/{z}/{x}/{y}.png', /^SVC_MAP_TILES_URL is not a URL \(value not shown\)$/);
    refusedTiles('ftp://tiles.example.org/{z}/{x}/{y}', /^SVC_MAP_TILES_URL must be http\(s\)$/);
    refusedTiles(
      'https://user:secret@tiles.example.org/{z}/{x}/{y}.png',
      /^SVC_MAP_TILES_URL must have no user info \(value not shown\)$/,
    );
    refusedTiles('https://tiles.example.org/{z}/{x}.png', /^SVC_MAP_TILES_URL must contain \{y\}$/);
  });
});
