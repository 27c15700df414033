/**
 * Credential profiles in OAuth mode, against a real authorization server (oidc-provider on loopback) whose tokens
 * carry a `groups` claim, as Keycloak's group mapper adds it: each user's calls reach a recording upstream signed
 * with their team's keys only, under hundreds of interleaved calls, through the SDK v2 client in both eras; a user
 * in no team is refused with the reason; a read-only team cannot write; the audit log names the profile and no
 * secret of any profile leaves. With --sandbox, each team has an account of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client as ClientV2,
  ClientCredentialsProvider as ProviderV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { startAuthorizationServer, tokenFrom, type AuthorizationServer } from '../../helpers/authorization-server.js';
import { startRecordingServer, type RecordedRequest, type RecordingServer } from '../../helpers/recording-server.js';
import { INITIALIZE, rawRequest, spawnHttpServer, waitFor, type HttpServerProcess } from '../../helpers/spawn-http.js';
import { freePort } from '../../helpers/nginx.js';

const ALL_SCOPES = 'svc.read svc.write svc.destructive';
const USERS = [
  { id: 'alice', secret: 'alice-secret-0123456789', scopes: ALL_SCOPES, claims: { groups: ['staff', 'team-a'] } },
  { id: 'bob', secret: 'bob-secret-0123456789', scopes: ALL_SCOPES, claims: { groups: ['team-b'] } },
  { id: 'carol', secret: 'carol-secret-0123456789', scopes: ALL_SCOPES, claims: { groups: ['visitors'] } },
];
const KEYS = {
  'team-a': { access: 'TEAMA-ACCESS-0001', secret: 'team-a-secret-Hy6Ju8Ki9Lo' },
  'team-b': { access: 'TEAMB-ACCESS-0002', secret: 'team-b-secret-Mn3Bv5Cx7Za' },
} as const;
const SECRETS = [KEYS['team-a'].secret, KEYS['team-b'].secret];

/** The profiles file of two teams; team-b may only read. Secrets come from the environment, never the file. */
function profilesFile(dir: string, gatewayUrl: string): string {
  const path = join(dir, 'profiles.json');
  const profile = (team: keyof typeof KEYS, extra: Record<string, string> = {}) => ({
    SVC_GATEWAY_URL: gatewayUrl,
    SVC_ACCESS_KEY: KEYS[team].access,
    SVC_SECRET_KEY: { env: `${team.toUpperCase().replace('-', '_')}_SECRET` },
    ...extra,
  });
  const file = {
    profiles: { 'team-a': profile('team-a'), 'team-b': profile('team-b', { SVC_READ_ONLY: 'true' }) },
    select: {
      claim: 'groups',
      rules: [
        { value: 'team-a', profile: 'team-a' },
        { value: 'team-b', profile: 'team-b' },
      ],
    },
  };
  writeFileSync(path, JSON.stringify(file));
  return path;
}

/** Recomputes the gateway signature v2 from what arrived (test/helpers/upstream.ts says how), with the given secret. */
function signedWith(req: RecordedRequest, secret: string): boolean {
  const timestamp = String(req.headers['x-svc-apigw-timestamp']);
  const message = `${req.method} ${req.url}\n${timestamp}\n${String(req.headers['x-svc-iam-access-key'])}`;
  return req.headers['x-svc-apigw-signature-v2'] === createHmac('sha256', secret).update(message).digest('base64');
}

interface Client {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: {
    name: string;
    arguments: Record<string, unknown>;
  }): Promise<{ isError?: boolean; content?: unknown }>;
  close(): Promise<void>;
}

async function connect(url: string, as: AuthorizationServer, user: string, era: '2026' | '2025'): Promise<Client> {
  const { secret } = USERS.find((u) => u.id === user)!;
  const authProvider = new ProviderV2({
    clientId: user,
    clientSecret: secret,
    scope: ALL_SCOPES,
    expectedIssuer: as.issuer,
  });
  const client = new ClientV2(
    { name: 'profiles-test', version: '0.0.0' },
    era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new HttpV2(new URL(url), { authProvider }));
  return client as unknown as Client;
}

describe('credential profiles chosen by the token (OAuth mode)', () => {
  let dir: string;
  let upstream: RecordingServer;
  let as: AuthorizationServer;
  let server: HttpServerProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-profiles-'));
    upstream = await startRecordingServer();
    upstream.setFallback({ status: 200, body: { code: 0, message: 'SUCCESS', result: { kafkaConfigGroupList: [] } } });
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}/mcp`;
    as = await startAuthorizationServer(publicUrl, USERS);
    server = await spawnHttpServer(['--port', String(port)], {
      SVC_MCP_OAUTH_ISSUER: as.issuer,
      SVC_MCP_PUBLIC_URL: publicUrl,
      SVC_PROFILES_FILE: profilesFile(dir, upstream.url),
      TEAM_A_SECRET: KEYS['team-a'].secret,
      TEAM_B_SECRET: KEYS['team-b'].secret,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await as?.close();
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("signs every user's calls with their team's keys only, across hundreds of interleaved calls in both eras", async () => {
    upstream.reset();
    upstream.setFallback({ status: 200, body: { code: 0, message: 'SUCCESS', result: { kafkaConfigGroupList: [] } } });
    const clients = await Promise.all([
      connect(server.url, as, 'alice', '2026'),
      connect(server.url, as, 'alice', '2025'),
      connect(server.url, as, 'bob', '2026'),
      connect(server.url, as, 'bob', '2025'),
    ]);
    // The page size tells whose call a request was: 7 for alice, 9 for bob.
    const pageSizes = [7, 7, 9, 9];
    const perClient = 60;
    try {
      const results = await Promise.all(
        clients.flatMap((client, i) =>
          Array.from({ length: perClient }, (_, n) =>
            client.callTool({
              name: 'streaming_list_config_groups',
              arguments: { kafkaVersionCode: 3050100, pageNo: n + 1, pageSize: pageSizes[i]! },
            }),
          ),
        ),
      );
      expect(results.filter((r) => r.isError)).toEqual([]);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    const pageSize = (req: RecordedRequest) => (JSON.parse(req.body) as { pageSize?: number }).pageSize;
    const requests = upstream.requests.filter((r) => r.url.includes('getKafkaVersionConfigGroupList'));
    expect(requests).toHaveLength(4 * perClient);
    for (const req of requests) {
      const team = pageSize(req) === 7 ? 'team-a' : 'team-b';
      const other = team === 'team-a' ? 'team-b' : 'team-a';
      expect(req.headers['x-svc-iam-access-key']).toBe(KEYS[team].access);
      expect(signedWith(req, KEYS[team].secret)).toBe(true);
      expect(signedWith(req, KEYS[other].secret)).toBe(false);
    }
    expect(requests.filter((r) => pageSize(r) === 7)).toHaveLength(2 * perClient);
    expect(requests.filter((r) => pageSize(r) === 9)).toHaveLength(2 * perClient);
  });

  it("lists and runs only what the user's profile allows: team-b is read-only", async () => {
    const bob = await connect(server.url, as, 'bob', '2026');
    const alice = await connect(server.url, as, 'alice', '2026');
    try {
      const bobs = (await bob.listTools()).tools.map((t) => t.name);
      const alices = (await alice.listTools()).tools.map((t) => t.name);
      expect(alices).toContain('dataflow_update_job_execution_options');
      expect(bobs).not.toContain('dataflow_update_job_execution_options');
      expect(bobs).toContain('streaming_list_config_groups');
      upstream.reset();
      const refused = await bob.callTool({
        name: 'dataflow_update_job_execution_options',
        arguments: { jobId: 'job-1', timeout: 60 },
      });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('[not_enabled]');
      expect(JSON.stringify(refused.content)).toContain('profile team-b');
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await bob.close();
      await alice.close();
    }
  });

  it('refuses a user whose groups pick no profile, with a reason an operator can act on', async () => {
    const token = await tokenFrom(as, USERS[2]!, `http://127.0.0.1:${server.port}/mcp`);
    const answer = await rawRequest(server.url, {
      headers: { Authorization: `Bearer ${token}` },
      body: INITIALIZE,
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain("the token's groups claim matches no rule of the credential profiles");
    await waitFor(() => server.stderr().includes('"refused":"no_profile"'), 5_000, 'the refusal in the request log');
  });

  it('names the profile in the audit log, and no secret of any profile in anything it logs', () => {
    const lines = server
      .stderr()
      .split('\n')
      .filter((line) => line.includes('"event":"tool_call"'))
      .map((line) => JSON.parse(line) as { sub?: string; profile?: string });
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.profile).toBe(line.sub === 'alice' ? 'team-a' : 'team-b');
    for (const secret of SECRETS) expect(server.stderr()).not.toContain(secret);
  });
});

describe('credential profiles with --sandbox', () => {
  it("gives each team an account of its own: one team's change is not another's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-profiles-'));
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}/mcp`;
    const as = await startAuthorizationServer(publicUrl, USERS);
    const path = join(dir, 'profiles.json');
    writeFileSync(
      path,
      JSON.stringify({
        profiles: { 'team-a': {}, 'team-b': {} },
        select: {
          claim: 'groups',
          rules: [
            { value: 'team-a', profile: 'team-a' },
            { value: 'team-b', profile: 'team-b' },
          ],
        },
      }),
    );
    const server = await spawnHttpServer(['--sandbox', '--port', String(port)], {
      SVC_MCP_OAUTH_ISSUER: as.issuer,
      SVC_MCP_PUBLIC_URL: publicUrl,
      SVC_PROFILES_FILE: path,
    });
    const alice = await connect(server.url, as, 'alice', '2026');
    const bob = await connect(server.url, as, 'bob', '2026');
    try {
      const check = { name: 'bigdata_check_app_name', arguments: { name: 'profiles-demo-app' } };
      const migrate = (client: Client) =>
        client.callTool({
          name: 'kms_migrate_key',
          arguments: { keyTag: 'kt-orders-3f9a1c', targetRegion: 'KR', confirm: 'kt-orders-3f9a1c' },
        });
      // Same answer to a read in both accounts; a key migrated in team-a's account is still there in team-b's.
      expect(JSON.stringify(await alice.callTool(check))).toBe(JSON.stringify(await bob.callTool(check)));
      const first = await migrate(alice);
      const again = await migrate(alice);
      const other = await migrate(bob);
      expect(first.isError).toBeFalsy();
      expect(again.isError).toBe(true);
      expect(other.isError).toBeFalsy();
      expect(JSON.stringify(first.content)).toBe(JSON.stringify(other.content));
      expect(server.stderr()).toMatch(/SANDBOX MODE — every service is the embedded simulator at \S+, \S+ /);
    } finally {
      await alice.close();
      await bob.close();
      await server.stop();
      await as.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
