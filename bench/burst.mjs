// Bursts at the default limits: 400 concurrent tool calls over stdio (the pipeline that sent them is the only client)
// and 40 HTTP sessions × 10 concurrent calls, against an upstream on loopback that answers in 20–200 ms. Reports how
// many succeeded, the latency of the calls (which wait their turn rather than being refused) and the server's peak
// memory (VmHWM of its process).
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import { INITIALIZE, INITIALIZED, LineClient } from './lib/jsonrpc-lines.mjs';
import { stop } from './lib/proc.mjs';
import { isMain, saveJson } from './lib/results.mjs';
import { startCli } from './lib/servers.mjs';
import { round, summary, table } from './lib/stats.mjs';

const TOOL = 'search_list_tokenizer_languages';
const LANGUAGES = JSON.stringify([
  { language: 'english', type: 'hanaterm', method: 'sgmt', option: '+english +revert' },
]);
const CREDENTIALS = { SVC_ACCESS_KEY: 'BENCHACCESSKEY', SVC_SECRET_KEY: 'bench-secret-key-0123456789' };

/** An upstream answering every request in 20–200 ms (spread evenly, deterministic). */
async function upstream() {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const delay = 20 + ((n++ * 37) % 181);
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(LANGUAGES), delay);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Peak resident memory of a process so far, in MiB (Linux). */
const peakMiB = (pid) =>
  round(Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024, 1);

async function stdioBurst(origin, calls) {
  const { child } = await startCli([], { env: { SVC_GATEWAY_URL: origin, ...CREDENTIALS } });
  try {
    const lines = new LineClient(child);
    await lines.request(INITIALIZE);
    lines.send(INITIALIZED);
    const started = performance.now();
    const times = [];
    const results = await Promise.all(
      Array.from({ length: calls }, async (_, i) => {
        const t = performance.now();
        const { message } = await lines.request({
          jsonrpc: '2.0',
          id: 10 + i,
          method: 'tools/call',
          params: { name: TOOL, arguments: {} },
        });
        times.push(performance.now() - t);
        return !message.error && !message.result?.isError;
      }),
    );
    return {
      path: `stdio, ${calls} concurrent calls`,
      ok: results.filter(Boolean).length,
      calls,
      wallMs: round(performance.now() - started),
      latency: summary(times),
      peakMiB: peakMiB(child.pid),
    };
  } finally {
    await stop(child);
  }
}

async function httpBurst(origin, sessions, each) {
  const { child, mcpUrl } = await startCli(['--http', '--port', '0'], {
    env: { SVC_GATEWAY_URL: origin, ...CREDENTIALS },
  });
  try {
    const clients = await Promise.all(
      Array.from({ length: sessions }, async () => {
        const client = new Client({ name: 'bench', version: '0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
        return client;
      }),
    );
    const started = performance.now();
    const times = [];
    const results = await Promise.all(
      clients.flatMap((client) =>
        Array.from({ length: each }, async () => {
          const t = performance.now();
          const result = await client.callTool({ name: TOOL, arguments: {} }, undefined, { timeout: 120_000 });
          times.push(performance.now() - t);
          return !result.isError;
        }),
      ),
    );
    const wallMs = round(performance.now() - started);
    await Promise.all(clients.map((c) => c.close()));
    return {
      path: `HTTP, ${sessions} sessions × ${each} concurrent calls`,
      ok: results.filter(Boolean).length,
      calls: sessions * each,
      wallMs,
      latency: summary(times),
      peakMiB: peakMiB(child.pid),
    };
  } finally {
    await stop(child);
  }
}

export async function run({ http = true } = {}) {
  const up = await upstream();
  const rows = [];
  try {
    rows.push(await stdioBurst(up.url, 400));
    if (http) rows.push(await httpBurst(up.url, 40, 10));
  } finally {
    await up.close();
  }
  const markdown = [
    '### Bursts at the default limits (16 running, 1024 waiting, half of it per client; upstream 20–200 ms)',
    '',
    table(
      ['burst', 'succeeded', 'wall ms', 'latency p50 ms', 'p90 ms', 'max ms', 'server peak RSS MiB'],
      rows.map((r) => [
        r.path,
        `${r.ok} of ${r.calls}`,
        r.wallMs.toFixed(0),
        r.latency.p50.toFixed(0),
        r.latency.p90.toFixed(0),
        r.latency.max.toFixed(0),
        r.peakMiB.toFixed(1),
      ]),
    ),
  ].join('\n');
  return { name: 'burst', json: { rows }, markdown };
}

if (isMain(import.meta.url)) {
  const result = await run();
  await saveJson(result.name, result.json);
  console.log(result.markdown);
}
