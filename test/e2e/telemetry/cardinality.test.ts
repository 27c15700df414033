/**
 * Issue 32, point 5 (H3) and L4: what a client chooses never becomes an attribute value without end, and no secret
 * leaves by telemetry. 120 requests with names of 1 MiB (methods, tools, prompts, resource URIs)
 * once made 120 attribute sets of megabytes each, kept for the life of the process; a configured secret used as a
 * tool name, resource URI, prompt name, method or request id reached the OTLP receiver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTRIBUTE_CHARS, OTHER } from '../../../src/telemetry/names.js';
import { startOtlpReceiver, type OtlpReceiver } from '../../helpers/otlp-receiver.js';
import { spawnRawStdio } from '../../helpers/raw-stdio.js';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { SECRETS, fullEnv } from '../../helpers/upstream.js';

const MiB = 1024 * 1024;
const SECRET = SECRETS[0]!;

describe('telemetry of names a client makes up', () => {
  let receiver: OtlpReceiver;
  let upstream: RecordingServer;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    upstream = await startRecordingServer();
    const server = spawnRawStdio(
      [],
      fullEnv(upstream.url, {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        SVC_MCP_SHUTDOWN_GRACE_MS: '5000',
      }),
    );
    await server.initialize();
    const huge = (i: number) => `${'n'.repeat(MiB)}${i}`;
    for (let i = 0; i < 30; i += 1) {
      await server.request(huge(i), {});
      await server.request('tools/call', { name: huge(i), arguments: {} });
      await server.request('prompts/get', { name: huge(i) });
      await server.request('resources/read', { uri: `svc://search/${huge(i)}` });
    }
    await server.request(SECRET, {});
    await server.request('tools/call', { name: SECRET, arguments: {} });
    await server.request('prompts/get', { name: SECRET });
    await server.request('resources/read', { uri: SECRET });
    server.send({ jsonrpc: '2.0', id: SECRET, method: 'tools/list' });
    // The egress filter redacts the id of its answer too.
    await server.next((m) => typeof m.id === 'string' && Array.isArray(m.result?.tools));
    // Known names, for comparison: recorded as they are.
    await server.request('tools/list', {});
    await server.request('resources/read', { uri: 'svc://translation/language-pairs/ko' });
    server.child.stdin.end();
    expect((await server.exited).code).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await upstream?.close();
  });

  it('exports a bounded number of attribute sets for 120 requests with names of 1 MiB', () => {
    const points = receiver.points('mcp.server.operation.duration');
    const sets = new Set(points.map((p) => JSON.stringify(p.attributes)));
    // initialize, tools/list, resources/read of a known URI, and each method's refusal of an unknown name.
    expect(sets.size).toBeLessThanOrEqual(8);
    const methods = new Set(points.map((p) => p.attributes['mcp.method.name']));
    expect([...methods].sort()).toEqual(
      ['initialize', 'tools/list', 'tools/call', 'prompts/get', 'resources/read', OTHER].sort(),
    );
    expect(points.some((p) => p.attributes['gen_ai.tool.name'] === OTHER)).toBe(true);
    expect(points.some((p) => p.attributes['gen_ai.prompt.name'] === OTHER)).toBe(true);
  });

  it('records no value longer than the bound, in spans or metrics', () => {
    const spans = receiver.spans();
    expect(spans.length).toBeGreaterThanOrEqual(125);
    const values = [
      ...spans.flatMap((s) => [s.name, ...Object.values(s.attributes)]),
      ...receiver.points('mcp.server.operation.duration').flatMap((p) => Object.values(p.attributes)),
    ].filter((v): v is string => typeof v === 'string');
    for (const value of values) expect(value.length).toBeLessThanOrEqual(2 * MAX_ATTRIBUTE_CHARS + 1);
    expect(spans.filter((s) => s.attributes['mcp.resource.uri'] === OTHER)).toHaveLength(31);
    expect(spans.map((s) => s.attributes['mcp.resource.uri'])).toContain('svc://translation/language-pairs/ko');
    // Everything exported together is far less than one of those names.
    expect(receiver.everything().length).toBeLessThan(MiB);
  });

  it('sends no configured secret to the receiver, whatever the client used it as', () => {
    const exported = receiver.everything();
    for (const secret of SECRETS) expect(exported).not.toContain(secret);
    expect(receiver.spans().some((s) => s.name === `tools/call ${OTHER}`)).toBe(true);
    expect(receiver.spans().some((s) => s.name === 'tools/list' && s.attributes['jsonrpc.request.id'] !== SECRET)).toBe(
      true,
    );
  });
});
