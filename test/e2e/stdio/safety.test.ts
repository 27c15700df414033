/**
 * Safety through the built server over stdio, with the SDK's Client, against a recording upstream that counts what
 * arrives: read-only mode and filters, a refused start-up, confirmation by form (accept, decline, wrong id) and by
 * `confirm`, and dry runs. Wherever nothing may be sent, the upstream must have received nothing.
 */
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { runCli } from '../../helpers/spawn-http.js';
import { spawnServer, textOf } from '../../helpers/spawn-server.js';
import { CREDENTIALS, expectGatewaySignature, fullEnv } from '../../helpers/upstream.js';

let upstream: RecordingServer;
beforeAll(async () => {
  upstream = await startRecordingServer();
});
afterAll(async () => {
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const MIGRATE = { keyTag: 'kt-1', targetRegion: 'JPN' };
const MIGRATED = { body: { code: 'SUCCESS', data: { keyTag: 'kt-1', targetRegion: 'JPN' } } };

it('--read-only lists only read-only tools, and a write is refused without reaching the upstream', async () => {
  const server = await spawnServer(fullEnv(upstream.url), ['--read-only']);
  try {
    expect(server.tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(server.tools.map((t) => t.name)).not.toContain('kms_migrate_key');
    const refused = await server.call('kms_migrate_key', { ...MIGRATE, confirm: 'kt-1' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/\[not_enabled\].*read-only mode\. Nothing was sent\./);
    expect(upstream.requests).toHaveLength(0);
  } finally {
    await server.close();
  }
});

it('an unknown name in a filter stops the start with one line that lists the valid names (exit 2)', async () => {
  const tools = await runCli(['--tools', 'kms_migrate_key,kms_delete_key']);
  expect(tools.code).toBe(2);
  expect(tools.stderr.trim().split('\n')).toHaveLength(1);
  expect(tools.stderr).toMatch(
    /^svc-platform-mcp: unknown tool in --tools: kms_delete_key; valid: streaming_list_config_groups, .*kms_migrate_key, translate_and_summarize\n$/,
  );
  const services = await runCli([], { SVC_SERVICES: 'kms,vault' });
  expect(services.code).toBe(2);
  expect(services.stderr).toMatch(
    /^svc-platform-mcp: unknown service in SVC_SERVICES: vault; valid: streaming, translation, .*kms\n$/,
  );
  const none = await runCli(['--read-only', '--tools', 'kms_migrate_key']);
  expect(none.code).toBe(2);
  expect(none.stderr).toMatch(/leave no tool enabled/);
});

describe('confirmation by a client that shows forms', () => {
  it.each([
    ['accepts with the id', { action: 'accept', content: { keyTag: 'kt-1' } }, 1],
    ['declines', { action: 'decline' }, 0],
    ['types another id', { action: 'accept', content: { keyTag: 'kt-2' } }, 0],
  ] as const)('the user %s', async (_, answer, requests) => {
    let asked = 0;
    const server = await spawnServer(fullEnv(upstream.url), [], () => {
      asked += 1;
      return answer as ElicitResult;
    });
    try {
      upstream.reply(MIGRATED);
      const result = await server.call('kms_migrate_key', MIGRATE);
      expect(asked).toBe(1);
      expect(upstream.requests).toHaveLength(requests);
      if (requests === 1) {
        expect(result.isError, textOf(result)).toBeFalsy();
        expectGatewaySignature(upstream.requests[0]!);
      } else {
        expect(textOf(result)).toMatch(/\[not_confirmed\].*Nothing was sent\./);
      }
    } finally {
      await server.close();
    }
  });
});

describe('confirmation by a client without forms, and dry runs', () => {
  it('needs confirm equal to the id; a dry run needs none and sends nothing', async () => {
    const server = await spawnServer(fullEnv(upstream.url));
    try {
      expect(textOf(await server.call('kms_migrate_key', MIGRATE))).toMatch(
        /\[not_confirmed\].*confirm set to the keyTag \("kt-1"\)/,
      );
      expect(textOf(await server.call('kms_migrate_key', { ...MIGRATE, confirm: 'kt-2' }))).toMatch(
        /confirm must equal the keyTag/,
      );
      expect(upstream.requests).toHaveLength(0);

      const dry = (await server.call('kms_migrate_key', { ...MIGRATE, dryRun: true })) as CallToolResult;
      expect(dry.isError, textOf(dry)).toBeFalsy();
      const request = (
        dry.structuredContent as { dryRun: { url: string; headers: Record<string, string>; body: unknown } }
      ).dryRun;
      expect(request.url).toBe(`${upstream.url}/kms/v1/keys/kt-1/migrate`);
      expect(request.body).toEqual({ targetRegion: 'JPN' });
      expect(request.headers['x-svc-apigw-signature-v2']).toBe('[redacted]');
      expect(textOf(dry)).not.toContain(CREDENTIALS.SVC_SECRET_KEY);
      expect(upstream.requests).toHaveLength(0);

      upstream.reply(MIGRATED);
      const done = await server.call('kms_migrate_key', { ...MIGRATE, confirm: 'kt-1' });
      expect(done.isError, textOf(done)).toBeFalsy();
      expect(upstream.requests).toHaveLength(1);
      expect(JSON.parse(upstream.requests[0]!.body)).toEqual({ targetRegion: 'JPN' });
    } finally {
      await server.close();
    }
  });
});
