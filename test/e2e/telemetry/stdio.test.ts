/**
 * Telemetry over stdio, both eras: the built server exports to an OTLP receiver on loopback; its spans and metrics of
 * real calls (one that succeeds, one retried, one that fails, one confirmed by a form, one refused [busy]) are checked
 * for names, attributes and parentage, and every exported byte for secrets and argument values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { startOtlpReceiver, SPAN_KIND, type OtlpReceiver } from '../../helpers/otlp-receiver.js';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { CLI_PATH, spawnServer, textOf } from '../../helpers/spawn-server.js';
import { CREDENTIALS, SECRETS, fullEnv } from '../../helpers/upstream.js';
import { validAnswer } from '../../helpers/valid-answers.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01`;
/** A collector token: it goes to the collector in a header, and nowhere else. */
const OTLP_TOKEN = 'otlp-token-Qw8Zr5Lk2Hs7';
const ARGUMENT_VALUES = ['Argument text never exported 7731', 'svc-ARGVALUE-99'];

describe('telemetry over stdio, 2025 era (initialize, a session)', () => {
  let receiver: OtlpReceiver;
  let upstream: RecordingServer;
  let stderr = '';

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    upstream = await startRecordingServer();
    const server = await spawnServer(
      fullEnv(upstream.url, {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${OTLP_TOKEN}`,
        SVC_MAX_CONCURRENT_CALLS: '1',
        SVC_MAX_QUEUED_CALLS: '1',
        SVC_MCP_SHUTDOWN_GRACE_MS: '1000',
      }),
      [],
      () => ({ action: 'accept', content: { serviceId: ARGUMENT_VALUES[1]! } }),
    );
    upstream.setFallback(validAnswer);
    // A call that succeeds, with the client's trace context in _meta.
    await server.client.callTool({
      name: 'translation_translate_text',
      arguments: { source: 'ko', target: 'en', text: ARGUMENT_VALUES[0] },
      _meta: { traceparent: TRACEPARENT, tracestate: 'vendor=1' },
    });
    // Retried (a read): 503, then 200.
    upstream.reply({ status: 503, body: 'busy' });
    await server.call('recommendation_get_default_schema', { datasetType: 'user' });
    // Fails: the gateway refuses.
    upstream.reply({ status: 404, body: { error: { errorCode: 300, message: 'not found', details: '' } } });
    await server.call('datacatalog_run_scanner', { catalogId: 12, scannerId: 34 });
    // Confirmed by a form (elicitation/create), then deleted: its path parameter is an argument value.
    await server.call('recommendation_delete_service', { serviceId: ARGUMENT_VALUES[1] });
    // One call holds the only place, one waits, a third is refused [busy].
    upstream.reply({ hang: true });
    const holding = server.call('translation_translate_text', { source: 'ko', target: 'en', text: 'a' });
    await waitUntil(() => upstream.requests.length === 6);
    const waiting = server.call('translation_translate_text', { source: 'ko', target: 'en', text: 'b' });
    const refused = await server.call('translation_translate_text', { source: 'ko', target: 'en', text: 'c' });
    expect(textOf(refused)).toContain('[busy]');
    void holding.catch(() => {});
    void waiting.catch(() => {});
    await server.close();
    stderr = server.stderr();
  }, 60_000);

  afterAll(async () => {
    await receiver?.close();
    await upstream?.close();
  });

  it('names a SERVER span per request, continues the client trace from _meta, and parents the stages on it', () => {
    const spans = receiver.spans();
    expect(spans.map((s) => s.name)).toEqual(
      expect.arrayContaining(['initialize', 'tools/list', 'tools/call translation_translate_text']),
    );
    const call = spans.find((s) => s.traceId === TRACE_ID && s.kind === SPAN_KIND.server)!;
    expect(call.name).toBe('tools/call translation_translate_text');
    expect(call.parentSpanId).toBe(CLIENT_SPAN_ID);
    expect(call.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'translation_translate_text',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'pipe',
      'svc_platform_mcp.call.outcome': 'ok',
    });
    expect(typeof call.attributes['jsonrpc.request.id']).toBe('string');
    expect(call.status.code ?? 0).toBe(0);
    const children = spans.filter((s) => s.parentSpanId === call.spanId);
    expect(children.map((s) => s.name).sort()).toEqual(['POST /nmt/v1/translation', 'svc_platform_mcp.admission']);
    const attempt = children.find((s) => s.kind === SPAN_KIND.client)!;
    expect(attempt.attributes).toMatchObject({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(upstream.url).port),
      'url.path': '/nmt/v1/translation',
      'http.response.status_code': 200,
    });
    expect(attempt.attributes).not.toHaveProperty('http.request.resend_count');
    expect(call.resource).toMatchObject({ 'service.name': 'svc-platform-mcp' });
  });

  it('records each attempt of a retried call, the retry with its resend count', () => {
    const spans = receiver.spans();
    const retry = spans.find((s) => s.kind === SPAN_KIND.client && s.attributes['http.request.resend_count'] === 1)!;
    const first = spans.find(
      (s) => s.kind === SPAN_KIND.client && s.parentSpanId === retry.parentSpanId && s.spanId !== retry.spanId,
    )!;
    expect(first.attributes).toMatchObject({ 'http.response.status_code': 503, 'error.type': '503' });
    expect(first.status.code).toBe(2);
    expect(retry.attributes['http.response.status_code']).toBe(200);
    expect(retry.status.code ?? 0).toBe(0);
  });

  it('marks a failed call ERROR with error.type, and keeps path parameters out of the path', () => {
    const spans = receiver.spans();
    const failed = spans.find((s) => s.name === 'tools/call datacatalog_run_scanner')!;
    expect(failed.attributes['error.type']).toBe('tool_error');
    expect(failed.attributes['svc_platform_mcp.call.outcome']).not.toBe('ok');
    expect(failed.status.code).toBe(2);
    const attempt = spans.find((s) => s.parentSpanId === failed.spanId && s.kind === SPAN_KIND.client)!;
    expect(attempt.name).toBe('PUT /api/v1/catalogs/{catalogId}/scanners/{scannerId}/run-scanner');
    expect(attempt.attributes['error.type']).toBe('404');
    const deleted = spans.find((s) => s.kind === SPAN_KIND.client && s.attributes['http.request.method'] === 'DELETE');
    expect(deleted?.attributes['url.path']).toBe('/api/v1/services/{serviceId}');
  });

  it('records the confirmation and the [busy] refusal as spans and metrics', () => {
    const spans = receiver.spans();
    const confirmation = spans.find((s) => s.name === 'svc_platform_mcp.confirmation')!;
    expect(confirmation.attributes).toMatchObject({
      'svc_platform_mcp.confirmation.channel': 'elicitation',
      'svc_platform_mcp.confirmation.answer': 'confirmed',
    });
    const busy = spans.find((s) => s.name === 'svc_platform_mcp.admission' && s.attributes['error.type'] === 'busy');
    expect(busy?.status.code).toBe(2);
    expect(receiver.points('svc_platform_mcp.calls.refused')).toEqual([
      expect.objectContaining({ kind: 'sum', value: 1, attributes: { 'svc_platform_mcp.refusal': 'busy' } }),
    ]);
    expect(receiver.points('svc_platform_mcp.confirmations.asked')[0]!.value).toBe(1);
    expect(receiver.points('svc_platform_mcp.confirmations.answered')[0]).toMatchObject({
      value: 1,
      attributes: { 'svc_platform_mcp.confirmation.answer': 'confirmed' },
    });
    for (const gauge of ['svc_platform_mcp.calls.running', 'svc_platform_mcp.calls.waiting'])
      expect(receiver.points(gauge)[0]?.kind).toBe('gauge');
  });

  it('exports the MCP and HTTP duration metrics with the conventions attributes, and the session', () => {
    const calls = receiver.points('mcp.server.operation.duration').filter((p) => p.attributes['gen_ai.tool.name']);
    expect(calls.every((p) => p.unit === 's' && p.kind === 'histogram')).toBe(true);
    expect(calls).toContainEqual(
      expect.objectContaining({
        attributes: {
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': 'translation_translate_text',
          'gen_ai.operation.name': 'execute_tool',
          'mcp.protocol.version': '2025-11-25',
          'network.transport': 'pipe',
        },
      }),
    );
    expect(calls.find((p) => p.attributes['error.type'] === 'tool_error')).toBeDefined();
    const upstreamPoints = receiver.points('http.client.request.duration');
    expect(upstreamPoints.map((p) => p.attributes['http.response.status_code'])).toEqual(
      expect.arrayContaining([200, 503, 404]),
    );
    expect(receiver.points('mcp.server.session.duration')).toEqual([
      expect.objectContaining({ value: 1, attributes: expect.objectContaining({ 'network.transport': 'pipe' }) }),
    ]);
  });

  it('sends the collector its token in a header, and no secret or argument value anywhere', () => {
    expect(receiver.exports.every((e) => e.headers.authorization === `Bearer ${OTLP_TOKEN}`)).toBe(true);
    const bodies = receiver.exports.map((e) => e.body.toString('utf8')).join('\n');
    for (const value of [...SECRETS, CREDENTIALS.SVC_ACCESS_KEY, OTLP_TOKEN, ...ARGUMENT_VALUES])
      expect(bodies).not.toContain(value);
    expect(stderr).not.toContain(OTLP_TOKEN);
    expect(stderr).not.toContain('telemetry:');
  });
});

describe('telemetry over stdio, 2026-07-28 era, http/protobuf', () => {
  it('exports protobuf with the span continuing the trace of _meta', async () => {
    const receiver = await startOtlpReceiver();
    const upstream = await startRecordingServer();
    try {
      const client = new ClientV2(
        { name: 'telemetry-test', version: '0.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(
        new StdioV2({
          command: process.execPath,
          args: [CLI_PATH],
          env: { PATH: process.env.PATH ?? '', ...fullEnv(upstream.url), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
          stderr: 'pipe',
        }),
      );
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      upstream.setFallback(validAnswer);
      const result = await client.callTool({
        name: 'translation_translate_text',
        arguments: { source: 'ko', target: 'en', text: ARGUMENT_VALUES[0] },
        _meta: { traceparent: TRACEPARENT },
      });
      expect(result.isError).toBeFalsy();
      await client.close();
      const traces = receiver.exports.filter((e) => e.path === '/v1/traces');
      expect(traces.length).toBeGreaterThan(0);
      expect(traces.every((e) => e.headers['content-type'] === 'application/x-protobuf')).toBe(true);
      const bytes = Buffer.concat(traces.map((e) => e.body));
      // Protobuf keeps strings as they are and ids as their 16 and 8 bytes.
      expect(bytes.includes(Buffer.from('tools/call translation_translate_text'))).toBe(true);
      expect(bytes.includes(Buffer.from('2026-07-28'))).toBe(true);
      expect(bytes.includes(Buffer.from(TRACE_ID, 'hex'))).toBe(true);
      expect(bytes.includes(Buffer.from(CLIENT_SPAN_ID, 'hex'))).toBe(true);
      const everything = Buffer.concat(receiver.exports.map((e) => e.body));
      for (const value of [...SECRETS, ARGUMENT_VALUES[0]!])
        expect(everything.includes(Buffer.from(value))).toBe(false);
      expect(receiver.exports.some((e) => e.path === '/v1/metrics')).toBe(true);
    } finally {
      await receiver.close();
      await upstream.close();
    }
  }, 30_000);
});

async function waitUntil(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 10));
}
