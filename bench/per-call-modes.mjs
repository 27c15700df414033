// What telemetry and OAuth add to a call: the per-call measurement of bench/per-call.mjs, each mode beside the one
// without it, their blocks of calls (and their floors') shuffled together in the same run, so that the ratio on ÷ off
// is not the machine's drift. Telemetry exports to an OTLP sink on loopback; OAuth verifies ES256 access tokens of an
// issuer on loopback, against plain HTTP on loopback and a static bearer token (SVC_MCP_AUTH_TOKEN).
import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import { INITIALIZE, INITIALIZED, LineClient } from './lib/jsonrpc-lines.mjs';
import { RawHttpSession } from './lib/mcp-http-raw.mjs';
import { startIssuer } from './lib/oauth-issuer.mjs';
import { startOtlpSink } from './lib/otlp-sink.mjs';
import { stop } from './lib/proc.mjs';
import { cliOptions, isMain, saveJson } from './lib/results.mjs';
import { ensureDistCopy, httpAvailable, startCli } from './lib/servers.mjs';
import { round, table } from './lib/stats.mjs';
import { TOOL, measure } from './per-call.mjs';

/** Where the server believes clients reach it: the audience of the tokens (nothing listens there). */
const PUBLIC_URL = 'https://mcp.bench.test/mcp';

async function stdio(name, env) {
  const { child, sandboxUrl } = await startCli(['--sandbox'], { env });
  const lines = new LineClient(child);
  await lines.request(INITIALIZE);
  lines.send(INITIALIZED);
  let id = 100;
  return {
    name,
    sandboxUrl,
    async call() {
      const { message } = await lines.request({
        jsonrpc: '2.0',
        id: id++,
        method: 'tools/call',
        params: { name: TOOL, arguments: {} },
      });
      if (message.error || message.result?.isError) throw new Error(JSON.stringify(message).slice(0, 300));
    },
    close: () => stop(child),
  };
}

async function http(name, env, headers) {
  const { child, sandboxUrl, mcpUrl } = await startCli(['--http', '--sandbox', '--port', '0'], { env });
  const dispatcher = new Agent({ connections: 8 });
  const session = await new RawHttpSession(mcpUrl, dispatcher, headers).open();
  return {
    name,
    sandboxUrl,
    call: () => session.call(TOOL),
    async close() {
      await session.close();
      await dispatcher.close();
      await stop(child);
    },
  };
}

/** `on` against `off`, measured together: the ratio of their latencies, and what `on` adds to the overhead. */
function compare(rows, on, off) {
  const a = rows.find((r) => r.target === on);
  const b = rows.find((r) => r.target === off);
  return {
    on,
    off,
    ratioP50: round(a.mcpMs.p50 / b.mcpMs.p50, 2),
    ratioP99: round(a.mcpMs.p99 / b.mcpMs.p99, 2),
    addedP50Ms: round(a.overheadP50Ms - b.overheadP50Ms, 2),
    addedP99Ms: round(a.overheadP99Ms - b.overheadP99Ms, 2),
  };
}

export async function run({ calls = 300, blocks = 10, warmup = 50, http: withHttp } = {}) {
  await ensureDistCopy();
  withHttp ??= await httpAvailable();
  const sink = await startOtlpSink();
  const issuer = await startIssuer();
  const staticToken = randomBytes(32).toString('hex');
  const labels = {
    telemetryOff: 'stdio, telemetry off',
    telemetryOn: 'stdio, telemetry on (OTLP on loopback)',
    open: 'HTTP session, loopback, no token',
    bearer: 'HTTP session, static bearer token',
    oauth: 'HTTP session, OAuth (ES256 JWT)',
  };
  const groups = [
    [
      () => stdio(labels.telemetryOff),
      () => stdio(labels.telemetryOn, { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_METRIC_EXPORT_INTERVAL: '5000' }),
    ],
    ...(withHttp
      ? [
          [
            () => http(labels.open, {}),
            () => http(labels.bearer, { SVC_MCP_AUTH_TOKEN: staticToken }, { authorization: `Bearer ${staticToken}` }),
            () =>
              http(
                labels.oauth,
                { SVC_MCP_OAUTH_ISSUER: issuer.issuer, SVC_MCP_PUBLIC_URL: PUBLIC_URL },
                { authorization: `Bearer ${issuer.mint(PUBLIC_URL)}` },
              ),
          ],
        ]
      : []),
  ];
  const rows = [];
  try {
    for (const group of groups) {
      const targets = [];
      for (const factory of group) targets.push(await factory());
      rows.push(...(await measure(targets, { calls, blocks, warmup })));
    }
  } finally {
    await sink.close();
    await issuer.close();
  }
  // Exports arrive in batches (spans every 5 s, metrics every OTEL_METRIC_EXPORT_INTERVAL, and at shutdown): none at
  // all would mean the "on" figures measured telemetry off.
  if (sink.received.exports === 0) throw new Error('telemetry on: the OTLP sink received no export');
  const ratios = [
    compare(rows, labels.telemetryOn, labels.telemetryOff),
    ...(withHttp ? [compare(rows, labels.oauth, labels.open), compare(rows, labels.oauth, labels.bearer)] : []),
    ...(withHttp ? [compare(rows, labels.bearer, labels.open)] : []),
  ];
  const json = { tool: TOOL, calls, blocks, warmup, http: withHttp, otlpExports: sink.received, rows, ratios };
  const markdown = [
    `### Per call with telemetry and OAuth on and off (\`${TOOL}\` against the sandbox, ${calls} calls each, interleaved)`,
    '',
    table(
      ['path', 'p50 ms', 'p99 ms', 'floor p50 ms', 'overhead p50 ms', 'overhead p99 ms'],
      rows.map((r) => [
        r.target,
        r.mcpMs.p50.toFixed(2),
        r.mcpMs.p99.toFixed(2),
        r.floorMs.p50.toFixed(2),
        r.overheadP50Ms.toFixed(2),
        r.overheadP99Ms.toFixed(2),
      ]),
    ),
    '',
    table(
      ['on', 'off', 'p50 on ÷ off', 'p99 on ÷ off', 'added p50 ms', 'added p99 ms'],
      ratios.map((c) => [c.on, c.off, `${c.ratioP50}×`, `${c.ratioP99}×`, c.addedP50Ms, c.addedP99Ms]),
    ),
    '',
    `The OTLP sink received ${sink.received.exports} exports (${sink.received.bytes} bytes).`,
    ...(withHttp ? [] : ['', '_HTTP rows skipped: `node dist/cli.js --http` did not start._']),
  ].join('\n');
  return { name: 'per-call-modes', json, markdown };
}

if (isMain(import.meta.url)) {
  const opts = cliOptions();
  const result = await run({
    calls: Number(opts.calls ?? 300),
    warmup: Number(opts.warmup ?? 50),
    http: opts.http === undefined ? undefined : opts.http === 'true',
  });
  await saveJson(result.name, result.json);
  console.log(result.markdown);
}
