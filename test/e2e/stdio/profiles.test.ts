/**
 * Credential profiles chosen by the operator over stdio: `--profile` (or SVC_PROFILE) picks one profile's keys for the
 * process, so that two local clients can run side by side with different accounts; a bad file or an unknown name
 * stops the start with exit code 2, naming the profile and the field, never a value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { spawnServer, textOf } from '../../helpers/spawn-server.js';
import { runCli, waitFor } from '../../helpers/spawn-http.js';
import { startOtlpReceiver } from '../../helpers/otlp-receiver.js';
import { expectGatewaySignature } from '../../helpers/upstream.js';

const SANDBOX_ACCOUNT = { access: 'SANDBOX-ACCT-0001', secret: 'sandbox-acct-secret-Tg5Rf4Ed3' };
const PRODUCTION_ACCOUNT = { access: 'PROD-ACCT-0002', secret: 'prod-acct-secret-Yh6Uj7Ik8' };
const STUDIO_KEY = 'studio-key-from-file-Op9Lk8';

let dir: string;
let upstream: RecordingServer;
let file: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-profiles-stdio-'));
  upstream = await startRecordingServer();
  upstream.setFallback({ status: 200, body: { code: 0, message: 'SUCCESS', result: { kafkaConfigGroupList: [] } } });
  writeFileSync(join(dir, 'studio-key'), `${STUDIO_KEY}\n`, { mode: 0o600 });
  file = join(dir, 'profiles.json');
  writeFileSync(
    file,
    JSON.stringify({
      profiles: {
        sandbox: {
          SVC_GATEWAY_URL: upstream.url,
          SVC_ACCESS_KEY: SANDBOX_ACCOUNT.access,
          SVC_SECRET_KEY: { env: 'SANDBOX_ACCOUNT_SECRET' },
          SVC_STREAMING_REGION: 'JPN',
        },
        production: {
          SVC_GATEWAY_URL: upstream.url,
          SVC_ACCESS_KEY: PRODUCTION_ACCOUNT.access,
          SVC_SECRET_KEY: { env: 'PRODUCTION_ACCOUNT_SECRET' },
          SVC_STUDIO_API_KEY: { file: join(dir, 'studio-key') },
          SVC_STUDIO_GATEWAY_KEY: { env: 'PRODUCTION_ACCOUNT_SECRET' },
          SVC_READ_ONLY: 'true',
        },
      },
    }),
  );
});

afterAll(async () => {
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({
  SVC_PROFILES_FILE: file,
  SANDBOX_ACCOUNT_SECRET: SANDBOX_ACCOUNT.secret,
  PRODUCTION_ACCOUNT_SECRET: PRODUCTION_ACCOUNT.secret,
});

describe('--profile over stdio', () => {
  it("two clients side by side, each signing with its own profile's keys and Region", async () => {
    const one = await spawnServer(env(), ['--profile', 'sandbox']);
    const two = await spawnServer({ ...env(), SVC_PROFILE: 'production' });
    try {
      upstream.reset();
      upstream.setFallback({
        status: 200,
        body: { code: 0, message: 'SUCCESS', result: { kafkaConfigGroupList: [] } },
      });
      const args = { kafkaVersionCode: 3050100 };
      const [a, b] = await Promise.all([
        one.call('streaming_list_config_groups', args),
        two.call('streaming_list_config_groups', args),
      ]);
      expect(a.isError).toBeFalsy();
      expect(b.isError).toBeFalsy();
      const byKey = (access: string) => upstream.requests.filter((r) => r.headers['x-svc-iam-access-key'] === access);
      const [fromOne] = byKey(SANDBOX_ACCOUNT.access);
      const [fromTwo] = byKey(PRODUCTION_ACCOUNT.access);
      expect(upstream.requests).toHaveLength(2);
      expectGatewaySignature(fromOne!, SANDBOX_ACCOUNT.access, SANDBOX_ACCOUNT.secret);
      expectGatewaySignature(fromTwo!, PRODUCTION_ACCOUNT.access, PRODUCTION_ACCOUNT.secret);
      // Each profile's own default Region: JPN for one, the server's default (KR) for the other.
      expect(fromOne!.url).toContain('/api/jpn-v1/');
      expect(fromTwo!.url).toContain('/api/v1/');
      // The read-only profile lists no tool that changes something.
      expect(two.tools.some((t) => t.name === 'kms_migrate_key')).toBe(false);
      expect(one.tools.some((t) => t.name === 'kms_migrate_key')).toBe(true);
      for (const text of [one.stderr(), two.stderr(), textOf(a), textOf(b)]) {
        for (const secret of [SANDBOX_ACCOUNT.secret, PRODUCTION_ACCOUNT.secret, STUDIO_KEY]) {
          expect(text).not.toContain(secret);
        }
      }
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("knows every profile's secrets: one echoed by the upstream is redacted, whichever profile is in use", async () => {
    const server = await spawnServer(env(), ['--profile', 'sandbox']);
    try {
      upstream.reset();
      upstream.setFallback({
        status: 400,
        body: { error: { errorCode: '100', message: `bad key ${STUDIO_KEY} / ${PRODUCTION_ACCOUNT.secret}` } },
      });
      const result = await server.call('streaming_list_config_groups', { kafkaVersionCode: 3050100 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).not.toContain(STUDIO_KEY);
      expect(textOf(result)).not.toContain(PRODUCTION_ACCOUNT.secret);
    } finally {
      await server.close();
    }
  });

  it("names the profile in the call's log line and on its span, and exports none of its secrets", async () => {
    const receiver = await startOtlpReceiver();
    const server = await spawnServer(
      { ...env(), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      ['--profile', 'sandbox'],
    );
    try {
      upstream.reset();
      upstream.setFallback({
        status: 200,
        body: { code: 0, message: 'SUCCESS', result: { kafkaConfigGroupList: [] } },
      });
      await server.call('streaming_list_config_groups', { kafkaVersionCode: 3050100 });
      await server.close();
      await waitFor(() => receiver.spans().some((s) => s.name === 'tools/call streaming_list_config_groups'));
      const span = receiver.spans().find((s) => s.name === 'tools/call streaming_list_config_groups')!;
      expect(span.attributes['svc_platform_mcp.call.profile']).toBe('sandbox');
      const line = server
        .stderr()
        .split('\n')
        .find((l) => l.includes('"event":"tool_call"'));
      expect(JSON.parse(line!)).toMatchObject({ tool: 'streaming_list_config_groups', profile: 'sandbox' });
      for (const secret of [SANDBOX_ACCOUNT.secret, PRODUCTION_ACCOUNT.secret, STUDIO_KEY]) {
        expect(receiver.everything()).not.toContain(secret);
      }
    } finally {
      await server.close();
      await receiver.close();
    }
  });

  it.each([
    [['--profile', 'staging'], {}, 'no profile named "staging" in SVC_PROFILES_FILE (profiles: sandbox, production)'],
    [[], {}, 'choose a profile with --profile or SVC_PROFILE'],
    [['--profile', 'sandbox'], { SANDBOX_ACCOUNT_SECRET: '' }, 'profile "sandbox", SVC_SECRET_KEY: the environment'],
  ])('exits 2 for %j, naming what is wrong', async (args, extra, expected) => {
    const { code, stderr } = await runCli(args, { ...env(), ...extra });
    expect(code).toBe(2);
    expect(stderr).toContain(expected);
    expect(stderr).not.toContain(PRODUCTION_ACCOUNT.secret);
  });

  it('exits 2 for a profiles file that holds a secret as a literal, naming the profile and field only', async () => {
    const bad = join(dir, 'literal.json');
    writeFileSync(bad, JSON.stringify({ profiles: { team: { SVC_SECRET_KEY: 'literal-secret-Qa1Ws2' } } }));
    const { code, stderr } = await runCli(['--profile', 'team'], { SVC_PROFILES_FILE: bad });
    expect(code).toBe(2);
    expect(stderr).toContain('profile "team", SVC_SECRET_KEY: a secret is {"env": "NAME"} or {"file": "PATH"}');
    expect(stderr).not.toContain('literal-secret-Qa1Ws2');
  });
});
