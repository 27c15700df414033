/**
 * OAuth mode against a real authorization server (oidc-provider on loopback, JWT access tokens through client
 * credentials): the SDK v2 client's own OAuth support in both eras and the v1 client in the 2025 era, over sessions
 * and --stateless. Discovery from the 401, the token, the calls; scopes narrowing the tools and the step-up
 * challenge; tokens refused for each way they can be wrong; no token in any log line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import {
  Client as ClientV2,
  ClientCredentialsProvider as ProviderV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider as ProviderV1 } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startAuthorizationServer, tokenFrom, type AuthorizationServer } from '../../helpers/authorization-server.js';
import { mintJwt, nonCanonical, tampered, unsignedJwt } from '../../helpers/jwt-mint.js';
import { startTricklingIssuer } from '../../helpers/trickling-issuer.js';
import { VALID } from '../../helpers/valid-args.js';
import {
  openStream,
  rawRequest,
  rpcMessage,
  runCli,
  spawnHttpServer,
  type HttpServerProcess,
} from '../../helpers/spawn-http.js';
import { freePort } from '../../helpers/nginx.js';

type Kind = 'v2-modern' | 'v2-legacy' | 'v1';
/** What a client asks for; the authorization server grants each client its own part of it. */
const ALL_SCOPES = 'svc.read svc.write svc.destructive';
const CLIENTS = [
  { id: 'writer', secret: 'writer-secret-0123456789', scopes: 'svc.read svc.write svc.destructive' },
  { id: 'reader', secret: 'reader-secret-0123456789', scopes: 'svc.read' },
];
const READ_ONLY_TOOLS = [
  'streaming_list_config_groups',
  'streaming_list_server_images',
  'translation_translate_text',
  'maps_reverse_geocode',
  'apigateway_list_products',
  'bigdata_check_app_name',
  'recommendation_get_default_schema',
  'textgen_create_completion',
  'search_list_tokenizer_languages',
  'translate_and_summarize',
];

interface Setup {
  as: AuthorizationServer;
  server: HttpServerProcess;
  publicUrl: string;
}

async function setUp(args: string[]): Promise<Setup> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}/mcp`;
  const as = await startAuthorizationServer(publicUrl, CLIENTS);
  const server = await spawnHttpServer(['--sandbox', '--port', String(port), ...args], {
    SVC_MCP_OAUTH_ISSUER: as.issuer,
    SVC_MCP_PUBLIC_URL: publicUrl,
  });
  return { as, server, publicUrl };
}

interface AnyClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ isError?: boolean }>;
  close(): Promise<void>;
}

async function connect(kind: Kind, setup: Setup, clientId: string): Promise<AnyClient> {
  const { secret } = CLIENTS.find((c) => c.id === clientId)!;
  const info = { name: 'oauth-test', version: '0.0.0' };
  const url = new URL(setup.server.url);
  if (kind === 'v1') {
    const authProvider = new ProviderV1({ clientId, clientSecret: secret, scope: ALL_SCOPES });
    const client = new ClientV1(info);
    await client.connect(new HttpV1(url, { authProvider }));
    return client as unknown as AnyClient;
  }
  const authProvider = new ProviderV2({
    clientId,
    clientSecret: secret,
    scope: ALL_SCOPES,
    expectedIssuer: setup.as.issuer,
  });
  const client = new ClientV2(
    info,
    kind === 'v2-modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new HttpV2(url, { authProvider }));
  return client as unknown as AnyClient;
}

const MODES = [
  { mode: 'sessions', args: [] as string[], kinds: ['v2-modern', 'v2-legacy', 'v1'] as Kind[] },
  { mode: 'stateless', args: ['--stateless'], kinds: ['v2-modern', 'v2-legacy', 'v1'] as Kind[] },
];

describe.each(MODES)('OAuth mode, $mode', ({ args, kinds }) => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await setUp(args);
  });
  afterAll(async () => {
    await setup?.server.stop();
    await setup?.as.close();
  });

  it.each(kinds)('%s: discovers the authorization server from the 401, gets a token, lists and calls', async (kind) => {
    const client = await connect(kind, setup, 'writer');
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(16);
      const result = await client.callTool({
        name: 'recommendation_get_default_schema',
        arguments: { datasetType: 'item' },
      });
      expect(result.isError).toBeFalsy();
      const write = await client.callTool({
        name: 'dataflow_update_job_execution_options',
        arguments: { ...VALID.dataflow_update_job_execution_options, dryRun: true },
      });
      expect(write.isError, JSON.stringify(write)).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it.each(kinds)(
    '%s: a token with svc.read sees and calls only read-only tools; a write is refused 403',
    async (kind) => {
      const client = await connect(kind, setup, 'reader');
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual([...READ_ONLY_TOOLS].sort());
        const result = await client.callTool({ name: 'search_list_tokenizer_languages', arguments: {} });
        expect(result.isError).toBeFalsy();
        const refused = await client
          .callTool({
            name: 'dataflow_update_job_execution_options',
            arguments: { ...VALID.dataflow_update_job_execution_options, dryRun: true },
          })
          .then(
            () => undefined,
            (error: unknown) => error as Error,
          );
        expect(String(refused)).toMatch(/403|insufficient_scope|scope/i);
      } finally {
        await client.close();
      }
    },
  );

  it('keeps every token out of the log', () => {
    const log = setup.server.stderr();
    expect(log).toMatch(/"event":"tool_call".*"sub":"writer","client_id":"writer"/);
    // Each of the three clients got the 403 for its write (a client may try again after asking for more scopes).
    const refusals = log.match(
      /"status":403,"ms":\d+,"rpc":"tools\/call","tool":"dataflow_update_job_execution_options","refused":"scope"/g,
    );
    expect(refusals?.length).toBeGreaterThanOrEqual(3);
    expect(log).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);
  });
});

describe('OAuth mode on the wire', () => {
  let setup: Setup;
  const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const now = () => Math.floor(Date.now() / 1000);
  const claims = (over: Record<string, unknown> = {}) => ({
    iss: setup.as.issuer,
    aud: setup.publicUrl,
    sub: 'alice',
    client_id: 'writer',
    scope: 'svc.read svc.write svc.destructive',
    iat: now(),
    exp: now() + 300,
    ...over,
  });
  const token = (over: Record<string, unknown> = {}) =>
    mintJwt(claims(over), { key: setup.as.signingKey, kid: setup.as.kid, alg: 'ES256' });
  const post = (body: string, headers: Record<string, string> = {}, path = '/mcp') =>
    rawRequest(`${setup.server.origin}${path}`, { body, headers });
  const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });

  beforeAll(async () => {
    setup = await setUp([]);
  });
  afterAll(async () => {
    await setup?.server.stop();
    await setup?.as.close();
  });

  it('serves the Protected Resource Metadata at both well-known paths, without a token', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const answer = await rawRequest(`${setup.server.origin}${path}`, { method: 'GET' });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({
        resource: setup.publicUrl,
        authorization_servers: [setup.as.issuer],
        scopes_supported: ['svc.read', 'svc.write', 'svc.destructive'],
        bearer_methods_supported: ['header'],
        resource_name: 'svc-platform-mcp',
      });
    }
  });

  it('answers a request without a token 401 with the metadata URL, and keeps /healthz open', async () => {
    const answer = await post(initialize);
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe(
      `Bearer resource_metadata="${setup.server.origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(rpcMessage(answer.body).error?.code).toBe(-32001);
    const health = await rawRequest(`${setup.server.origin}/healthz`, { method: 'GET' });
    expect(health.status).toBe(200);
  });

  it('accepts a token it did not see the provider issue (minted with its key), and refuses one in the URL', async () => {
    const good = await post(LIST, { Authorization: `Bearer ${token()}`, 'MCP-Protocol-Version': '2026-07-28' });
    expect(good.status).not.toBe(401);
    const query = await post(initialize, {}, `/mcp?access_token=${token()}`);
    expect(query.status).toBe(401);
    expect(query.headers['www-authenticate']).toMatch(/error="invalid_request"/);
  });

  const BAD: [string, () => string][] = [
    ['a wrong audience', () => token({ aud: 'https://elsewhere.example.com/mcp' })],
    ['a wrong issuer', () => token({ iss: 'https://issuer.example.com' })],
    ['an expired token', () => token({ exp: now() - 120 })],
    ['alg none', () => unsignedJwt(claims(), setup.as.kid)],
    ['a key not in the JWKS', () => mintJwt(claims(), { key: stranger, kid: 'stranger', alg: 'ES256' })],
    [
      'a key not in the JWKS, under a kid that is',
      () => mintJwt(claims(), { key: stranger, kid: setup.as.kid, alg: 'ES256' }),
    ],
    ['a tampered signature', () => tampered(token())],
    [
      'an ID token (typ JWT)',
      () =>
        mintJwt(claims({ nonce: 'n-0S6' }), { key: setup.as.signingKey, kid: setup.as.kid, alg: 'ES256', typ: 'JWT' }),
    ],
    [
      'a logout token',
      () =>
        mintJwt(claims({ events: { 'http://schemas.openid.net/event/backchannel-logout': {} } }), {
          key: setup.as.signingKey,
          kid: setup.as.kid,
          alg: 'ES256',
          typ: 'logout+jwt',
        }),
    ],
    [
      'a token without typ',
      () => mintJwt(claims(), { key: setup.as.signingKey, kid: setup.as.kid, alg: 'ES256', typ: null }),
    ],
    ['a signature with stray bits in its last character', () => nonCanonical(token(), 'trailing-bits')],
    ['a padded signature', () => nonCanonical(token(), 'padding')],
    ['no JWT at all', () => 'opaque-token-value-1234567890'],
  ];
  it.each(BAD)('refuses %s with 401 invalid_token', async (_name, make) => {
    const answer = await post(initialize, { Authorization: `Bearer ${make()}` });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/,
    );
    expect(rpcMessage(answer.body).error?.code).toBe(-32001);
  });

  it('answers a call beyond the scopes 403 with the step-up challenge, and sends nothing', async () => {
    const reader = token({ scope: 'svc.read' });
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'kms_migrate_key', arguments: { keyTag: 'k1' } },
    });
    const opened = await post(initialize, { Authorization: `Bearer ${reader}` });
    expect(opened.status).toBe(200);
    const session = opened.headers['mcp-session-id'] as string;
    const answer = await post(call, { Authorization: `Bearer ${reader}`, 'Mcp-Session-Id': session });
    expect(answer.status).toBe(403);
    expect(answer.headers['www-authenticate']).toBe(
      `Bearer error="insufficient_scope", scope="svc.destructive", error_description="this needs svc.destructive", ` +
        `resource_metadata="${setup.server.origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(setup.server.stderr()).not.toMatch(/"tool":"kms_migrate_key","outcome"/);
  });

  it('binds a session to its subject: another subject with its id is refused, its own next token is not', async () => {
    const opened = await post(initialize, { Authorization: `Bearer ${token({ sub: 'alice' })}` });
    const session = opened.headers['mcp-session-id'] as string;
    const bob = await post(LIST, { Authorization: `Bearer ${token({ sub: 'bob' })}`, 'Mcp-Session-Id': session });
    expect(bob.status).toBe(404);
    const alice = await post(LIST, { Authorization: `Bearer ${token({ sub: 'alice' })}`, 'Mcp-Session-Id': session });
    expect(alice.status).toBe(200);
    const withoutToken = await post(LIST, { 'Mcp-Session-Id': session });
    expect(withoutToken.status).toBe(401);
  });

  it('takes the scopes of each request in a session: the same user steps up with a broader token', async () => {
    const opened = await post(initialize, { Authorization: `Bearer ${token({ sub: 'carol', scope: 'svc.read' })}` });
    const session = opened.headers['mcp-session-id'] as string;
    const names = async (scope: string) => {
      const answer = await post(LIST, {
        Authorization: `Bearer ${token({ sub: 'carol', scope })}`,
        'Mcp-Session-Id': session,
      });
      return (rpcMessage(answer.body).result as { tools: { name: string }[] }).tools.map((t) => t.name);
    };
    expect(await names('svc.read')).toHaveLength(10);
    expect(await names('svc.read svc.write svc.destructive')).toHaveLength(16);
    expect(await names('svc.destructive')).toEqual(['recommendation_delete_service', 'kms_migrate_key']);
  });

  it('refuses a 2026-07-28 call beyond the scopes with 403 before the per-request server sees it', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const body = (name: string) =>
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: {}, _meta: meta } });
    const headers = (name: string) => ({
      Authorization: `Bearer ${token({ scope: 'svc.read' })}`,
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': name,
    });
    const write = await post(body('datacatalog_run_scanner'), headers('datacatalog_run_scanner'));
    expect(write.status).toBe(403);
    expect(write.headers['www-authenticate']).toMatch(/^Bearer error="insufficient_scope", scope="svc.write"/);
    const read = await post(body('search_list_tokenizer_languages'), headers('search_list_tokenizer_languages'));
    expect(read.status).toBe(200);
    expect(JSON.stringify(rpcMessage(read.body).result)).toContain('korean');
  });

  it('lets no token, nor its signature, reach a log line', () => {
    const log = setup.server.stderr();
    expect(log).not.toMatch(/eyJ[A-Za-z0-9_-]{8,}/);
    const sample = token();
    expect(log).not.toContain(sample.split('.')[2]!.slice(0, 16));
    expect(log).toContain('"refused":"auth"');
  });
});

describe('OAuth mode, wrong tokens behind one address', () => {
  it("refuses one user's wrong tokens without refusing the valid tokens of another user at the same address", async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}/mcp`;
    const as = await startAuthorizationServer(publicUrl, CLIENTS);
    // The test's requests come through a trusted proxy on loopback, all from one office address behind a NAT.
    const server = await spawnHttpServer(['--sandbox', '--port', String(port)], {
      SVC_MCP_OAUTH_ISSUER: as.issuer,
      SVC_MCP_PUBLIC_URL: publicUrl,
      SVC_MCP_TRUSTED_PROXIES: '127.0.0.1',
    });
    const office = { 'X-Forwarded-For': '203.0.113.7' };
    const now = Math.floor(Date.now() / 1000);
    const tokenOf = (sub: string, over: Record<string, unknown> = {}) =>
      mintJwt(
        { iss: as.issuer, aud: publicUrl, sub, scope: 'svc.read', exp: now + 300, ...over },
        { key: as.signingKey, kid: as.kid, alg: 'ES256' },
      );
    const open = (token: string) =>
      rawRequest(server.url, {
        headers: { ...office, Authorization: `Bearer ${token}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
        }),
      });
    try {
      const stale = tokenOf('mallory', { exp: now - 3600 });
      const forged = tampered(tokenOf('mallory'));
      for (let i = 0; i < 12; i += 1) {
        expect((await open(i % 2 === 0 ? stale : forged)).status).toBe(401);
        expect((await open(tokenOf(`other-${i}`, { aud: 'https://elsewhere.example.com' }))).status).toBe(401);
      }
      const alice = await open(tokenOf('alice'));
      expect(alice.status).toBe(200);
      expect(alice.headers['mcp-session-id']).toBeTruthy();
      // The wrong token is still refused for what it is, not for where it comes from.
      const again = await open(forged);
      expect(again.status).toBe(401);
      expect(again.headers['www-authenticate']).toMatch(/error_description="the token signature is invalid"/);
      expect(server.stderr()).not.toContain('"refused":"auth_backoff"');
    } finally {
      await server.stop();
      await as.close();
    }
  });
});

describe('OAuth mode, an authorization server that trickles its answer', () => {
  it.each(['metadata', 'jwks'] as const)(
    'answers 503 "did not answer in time" when its %s trickles, and logs it once',
    async (trickle) => {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const issuer = await startTricklingIssuer({
        trickle,
        jwks: { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig' }] },
      });
      const port = await freePort();
      const publicUrl = `http://127.0.0.1:${port}/mcp`;
      const server = await spawnHttpServer(['--sandbox', '--port', String(port)], {
        SVC_MCP_OAUTH_ISSUER: issuer.issuer,
        SVC_MCP_PUBLIC_URL: publicUrl,
        SVC_MCP_OAUTH_TIMEOUT_MS: '300',
      });
      const now = Math.floor(Date.now() / 1000);
      const token = mintJwt(
        { iss: issuer.issuer, aud: publicUrl, sub: 'alice', scope: 'svc.read', exp: now + 300 },
        { key: privateKey, kid: 'k1', alg: 'ES256' },
      );
      const initialize = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      });
      try {
        const answers = await Promise.all(
          [1, 2, 3].map(() =>
            rawRequest(server.url, { headers: { Authorization: `Bearer ${token}` }, body: initialize }),
          ),
        );
        for (const answer of answers) {
          expect(answer.status).toBe(503);
          expect(answer.headers['retry-after']).toBe('5');
          expect(rpcMessage(answer.body).error?.message).toBe(
            'Service Unavailable: the authorization server did not answer in time to check the token; retry later',
          );
        }
        await expect.poll(() => server.stderr().match(/"event":"oauth_keys_unavailable"/g)?.length ?? 0).toBe(1);
        expect(server.stderr()).toContain(
          '{"event":"oauth_keys_unavailable","why":"the authorization server did not answer within 300 ms (SVC_MCP_OAUTH_TIMEOUT_MS)"}',
        );
        await expect.poll(() => server.stderr().match(/"status":503,.*"refused":"auth_timeout"/g)?.length).toBe(3);
      } finally {
        await server.stop();
        await issuer.close();
      }
    },
  );
});

describe('OAuth mode with replicas', () => {
  it('accepts one token on two replicas that share nothing but the settings (verification is stateless)', async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}/mcp`;
    const as = await startAuthorizationServer(publicUrl, CLIENTS);
    const env = { SVC_MCP_OAUTH_ISSUER: as.issuer, SVC_MCP_PUBLIC_URL: publicUrl };
    const replicas = [
      await spawnHttpServer(['--sandbox', '--stateless'], env),
      await spawnHttpServer(['--sandbox', '--stateless'], env),
    ];
    try {
      const accessToken = await tokenFrom(as, CLIENTS[1]!, publicUrl);
      expect(accessToken.split('.')).toHaveLength(3);
      for (const replica of replicas) {
        const listed = await rawRequest(replica.url, {
          headers: { Authorization: `Bearer ${accessToken}` },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
          }),
        });
        expect(listed.status).toBe(200);
        expect(replica.stderr()).not.toContain(accessToken.split('.')[2]!.slice(0, 16));
      }
    } finally {
      for (const replica of replicas) await replica.stop();
      await as.close();
    }
  });

  it('counts a user as the client of the per-client limits, even on loopback where addresses count for nothing', async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}/mcp`;
    const as = await startAuthorizationServer(publicUrl, CLIENTS);
    const server = await spawnHttpServer(['--sandbox', '--port', String(port)], {
      SVC_MCP_OAUTH_ISSUER: as.issuer,
      SVC_MCP_PUBLIC_URL: publicUrl,
      SVC_MCP_MAX_SESSIONS_PER_CLIENT: '1',
    });
    const now = Math.floor(Date.now() / 1000);
    const tokenOf = (sub: string) =>
      mintJwt(
        { iss: as.issuer, aud: publicUrl, sub, scope: 'svc.read', exp: now + 300 },
        { key: as.signingKey, kid: as.kid, alg: 'ES256' },
      );
    const open = (sub: string) =>
      rawRequest(server.url, {
        headers: { Authorization: `Bearer ${tokenOf(sub)}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
        }),
      });
    try {
      const first = await open('alice');
      expect(first.status).toBe(200);
      // Her session live (its stream open), so that the cap refuses rather than closing it to make room.
      const stream = await openStream(server.url, first.headers['mcp-session-id'] as string, {
        headers: { Authorization: `Bearer ${tokenOf('alice')}` },
      });
      expect(stream.status).toBe(200);
      const again = await open('alice');
      stream.close();
      expect(again.status).toBe(429);
      expect(rpcMessage(again.body).error?.message).toMatch(
        /^Too many sessions of your user: .*SVC_MCP_MAX_SESSIONS_PER_CLIENT/,
      );
      expect((await open('bob')).status).toBe(200);
    } finally {
      await server.stop();
      await as.close();
    }
  });

  it('stops the start with exit code 2 and one line for an issuer that is not https', async () => {
    const { code, stderr } = await runCli(['--http', '--port', '0'], {
      SVC_MCP_OAUTH_ISSUER: 'http://sso.example.com',
      SVC_MCP_PUBLIC_URL: 'https://mcp.example.com/mcp',
    });
    expect(code).toBe(2);
    expect(stderr).toBe('svc-platform-mcp: SVC_MCP_OAUTH_ISSUER must be an https URL (http only on loopback)\n');
  });
});
