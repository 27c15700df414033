/**
 * Telemetry over Streamable HTTP, both eras: a 2026-07-28 request continues the trace of its `_meta` (which wins over
 * the HTTP header) or else of its header; a 2025 session's requests continue the header's, carry the session id, and
 * the session's duration is exported when it ends; a stateless 2025 request too. The tool arguments, when asked for,
 * are recorded redacted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, SPAN_KIND, type OtlpReceiver } from '../../helpers/otlp-receiver.js';
import { postModern, responseOf } from '../../helpers/modern-post.js';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { connectClient, spawnHttpServer } from '../../helpers/spawn-http.js';
import { CREDENTIALS, SECRETS, fullEnv } from '../../helpers/upstream.js';
import { validAnswer } from '../../helpers/valid-answers.js';

const traceparent = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`;
const META = { traceId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1', spanId: 'bbbbbbbbbbbbbbb1' };
const HEADER = { traceId: 'ccccccccccccccccccccccccccccccc2', spanId: 'ddddddddddddddd2' };
const ONLY_HEADER = { traceId: 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeee3', spanId: 'fffffffffffffff3' };
const SESSION = { traceId: '1111111111111111111111111111111a', spanId: '222222222222222a' };
const STATELESS = { traceId: '3333333333333333333333333333333b', spanId: '444444444444444b' };
const TEXT = 'words of the user 5521';

describe('telemetry over HTTP', () => {
  let receiver: OtlpReceiver;
  let upstream: RecordingServer;
  let sessionId: string | undefined;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    upstream = await startRecordingServer();
    upstream.setFallback(validAnswer);
    const env = fullEnv(upstream.url, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      SVC_TELEMETRY_TOOL_ARGUMENTS: 'true',
    });
    const server = await spawnHttpServer([], env);
    const stateless = await spawnHttpServer(['--stateless'], env);
    try {
      const translate = { name: 'translation_translate_text', arguments: { source: 'ko', target: 'en', text: TEXT } };
      // 2026-07-28: _meta and header both; then the header alone. The text carries a secret: recorded redacted.
      const both = await postModern(
        server.url,
        'tools/call',
        { ...translate, arguments: { ...translate.arguments, text: `${TEXT} ${CREDENTIALS.SVC_SECRET_KEY}` } },
        {
          meta: { traceparent: traceparent(META.traceId, META.spanId) },
          headers: { traceparent: traceparent(HEADER.traceId, HEADER.spanId) },
        },
      );
      expect(responseOf(both.text)).toHaveProperty('result');
      const header = await postModern(server.url, 'tools/call', translate, {
        headers: { traceparent: traceparent(ONLY_HEADER.traceId, ONLY_HEADER.spanId) },
      });
      expect(responseOf(header.text)).toHaveProperty('result');
      // 2025: a session, its header on every request; ended by DELETE.
      const { client, transport } = await connectClient(server.url, {
        traceparent: traceparent(SESSION.traceId, SESSION.spanId),
      });
      await client.callTool(translate);
      sessionId = transport.sessionId;
      await transport.terminateSession();
      await client.close();
      // 2025 stateless.
      const one = await connectClient(stateless.url, {
        traceparent: traceparent(STATELESS.traceId, STATELESS.spanId),
      });
      await one.client.callTool(translate);
      await one.client.close();
    } finally {
      expect(await server.stop()).toBe(0);
      expect(await stateless.stop()).toBe(0);
    }
  }, 60_000);

  afterAll(async () => {
    await receiver?.close();
    await upstream?.close();
  });

  const callSpan = (traceId: string) =>
    receiver.spans().find((s) => s.traceId === traceId && s.name === 'tools/call translation_translate_text');

  it('2026-07-28: the trace context of _meta wins over the header', () => {
    const span = callSpan(META.traceId)!;
    expect(span.parentSpanId).toBe(META.spanId);
    expect(span.kind).toBe(SPAN_KIND.server);
    expect(span.attributes).toMatchObject({
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'jsonrpc.request.id': '1',
    });
    expect(span.attributes).not.toHaveProperty('mcp.session.id');
    expect(callSpan(HEADER.traceId)).toBeUndefined();
    const attempt = receiver.spans().find((s) => s.parentSpanId === span.spanId && s.kind === SPAN_KIND.client);
    expect(attempt?.traceId).toBe(META.traceId);
  });

  it('2026-07-28: without _meta, the header is the parent', () => {
    expect(callSpan(ONLY_HEADER.traceId)?.parentSpanId).toBe(ONLY_HEADER.spanId);
  });

  it('records the tool arguments when asked, with the secrets redacted', () => {
    const recorded = callSpan(META.traceId)!.attributes['gen_ai.tool.call.arguments'] as string;
    expect(recorded).toContain(TEXT);
    expect(recorded).toContain('[redacted]');
    expect(recorded).not.toContain(CREDENTIALS.SVC_SECRET_KEY);
  });

  it('2025 session: the header is the parent, the span names the session, and the session is measured', () => {
    const span = callSpan(SESSION.traceId)!;
    expect(span.parentSpanId).toBe(SESSION.spanId);
    expect(sessionId).toBeDefined();
    expect(span.attributes).toMatchObject({
      'mcp.session.id': sessionId,
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
    });
    const initialize = receiver.spans().find((s) => s.traceId === SESSION.traceId && s.name === 'initialize');
    expect(initialize?.parentSpanId).toBe(SESSION.spanId);
    expect(receiver.points('mcp.server.session.duration')).toContainEqual(
      expect.objectContaining({
        unit: 's',
        value: 1,
        attributes: {
          'mcp.protocol.version': '2025-11-25',
          'network.transport': 'tcp',
          'network.protocol.name': 'http',
        },
      }),
    );
  });

  it('2025 stateless: the header is the parent', () => {
    expect(callSpan(STATELESS.traceId)?.parentSpanId).toBe(STATELESS.spanId);
  });

  it('exports the operation duration of each era, and no secret anywhere', () => {
    const versions = receiver
      .points('mcp.server.operation.duration')
      .filter((p) => p.attributes['gen_ai.tool.name'] === 'translation_translate_text')
      .map((p) => p.attributes['mcp.protocol.version']);
    expect(versions).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']));
    const everything = receiver.everything();
    for (const secret of [...SECRETS, CREDENTIALS.SVC_ACCESS_KEY]) expect(everything).not.toContain(secret);
  });
});
