// Per-call overhead: a tool call through MCP against the sandbox, minus the same upstream request sent directly with
// undici (the floor: signing + HTTP to the sandbox + reading the answer, in this process). Each MCP target runs in
// its own server process; its floor is measured against that process's sandbox, in interleaved blocks.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, request } from 'undici';
import { INITIALIZE, INITIALIZED, LineClient, modern } from './lib/jsonrpc-lines.mjs';
import { RawHttpSession } from './lib/mcp-http-raw.mjs';
import { stop, waitForStderr } from './lib/proc.mjs';
import { ROOT, cliOptions, isMain, saveJson } from './lib/results.mjs';
import { CLI, SANDBOX_LINE, benchEnv, ensureDistCopy, httpAvailable, startCli } from './lib/servers.mjs';
import { gatewayHeaders } from './lib/sign.mjs';
import { round, shuffled, summary, table } from './lib/stats.mjs';

export const TOOL = 'search_list_tokenizer_languages';
export const TOOL_PATH = '/CloudSearch/real/v1/tokenizer';

/** The floor: the request the tool sends, signed here and sent with undici over a keep-alive connection. */
export function directCaller(sandboxUrl) {
  const dispatcher = new Agent({ connections: 8 });
  const base = new URL(sandboxUrl);
  const uri = `${base.pathname.replace(/\/$/, '')}${TOOL_PATH}`;
  const url = `${base.origin}${uri}`;
  return {
    async call() {
      const res = await request(url, { method: 'GET', headers: gatewayHeaders('GET', uri), dispatcher });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`direct: HTTP ${res.statusCode} ${text.slice(0, 200)}`);
      JSON.parse(text);
    },
    close: () => dispatcher.close(),
  };
}

/**
 * stdio, newline-delimited JSON-RPC written by the bench: what the server itself adds, in the 2025 era (after
 * initialize) or the 2026-07-28 one (each request carries its version). `cli` runs another build (a baseline).
 */
async function stdioRaw(era, cli, label = '') {
  const { child, sandboxUrl } = await startCli(['--sandbox'], { cli });
  const lines = new LineClient(child);
  if (era === '2025') {
    await lines.request(INITIALIZE);
    lines.send(INITIALIZED);
  }
  let id = 100;
  const request = (message) => (era === '2025' ? message : modern(message));
  return {
    name: `${label}stdio (raw JSON-RPC, ${era})`,
    sandboxUrl,
    async call() {
      const { message } = await lines.request(
        request({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: TOOL, arguments: {} } }),
      );
      if (message.error || message.result?.isError) throw new Error(JSON.stringify(message).slice(0, 300));
    },
    close: () => stop(child),
  };
}

/** stdio through the SDK's own Client, as an agent host would call it (includes the client's own work). */
async function stdioSdk() {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--sandbox'],
    cwd: ROOT,
    env: benchEnv(),
    stderr: 'pipe',
  });
  const sandbox = waitForStderr({ stderr: transport.stderr, once() {}, off() {} }, SANDBOX_LINE);
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  const sandboxUrl = (await sandbox)[1];
  transport.stderr.resume();
  return {
    name: 'stdio (SDK Client)',
    sandboxUrl,
    async call() {
      const result = await client.callTool({ name: TOOL, arguments: {} });
      if (result.isError) throw new Error(JSON.stringify(result).slice(0, 300));
    },
    close: () => client.close(),
  };
}

async function httpRaw(stateless) {
  const { child, sandboxUrl, mcpUrl } = await startCli([
    '--http',
    '--sandbox',
    '--port',
    '0',
    ...(stateless ? ['--stateless'] : []),
  ]);
  const dispatcher = new Agent({ connections: 8 });
  const session = await new RawHttpSession(mcpUrl, dispatcher).open();
  return {
    name: `HTTP ${stateless ? 'stateless' : 'session'} (raw)`,
    sandboxUrl,
    call: () => session.call(TOOL),
    async close() {
      await session.close();
      await dispatcher.close();
      await stop(child);
    },
  };
}

async function httpSdk() {
  const { child, sandboxUrl, mcpUrl } = await startCli(['--http', '--sandbox', '--port', '0']);
  const client = new Client({ name: 'bench', version: '0' });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl));
  await client.connect(transport);
  return {
    name: 'HTTP session (SDK Client)',
    sandboxUrl,
    async call() {
      const result = await client.callTool({ name: TOOL, arguments: {} });
      if (result.isError) throw new Error(JSON.stringify(result).slice(0, 300));
    },
    async close() {
      await transport.terminateSession().catch(() => {});
      await client.close();
      await stop(child);
    },
  };
}

async function timeCalls(fn, n, into) {
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    into.push(performance.now() - t);
  }
}

/**
 * Targets measured together, each against its own floor: `calls` of each, in `blocks` blocks, every block running
 * each target and each floor in a random order, after a warm-up. Measured together, ours and a baseline build see the
 * machine alike (one after the other, a drift of the machine's load showed as a difference of 0.3 ms).
 */
export async function measure(targets, { calls, blocks, warmup }) {
  const runs = targets.map((target) => ({ target, direct: directCaller(target.sandboxUrl), mcp: [], floor: [] }));
  try {
    for (const r of runs) {
      await timeCalls(r.target.call, warmup, []);
      await timeCalls(r.direct.call, warmup, []);
    }
    const perBlock = Math.ceil(calls / blocks);
    const slots = runs.flatMap((r) => [
      [r.target.call, r.mcp],
      [r.direct.call, r.floor],
    ]);
    for (let b = 0; b < blocks; b++) for (const [call, into] of shuffled(slots)) await timeCalls(call, perBlock, into);
  } finally {
    for (const r of runs) {
      await r.direct.close();
      await r.target.close();
    }
  }
  return runs.map(({ target, mcp: mcpTimes, floor: floorTimes }) => {
    const mcp = summary(mcpTimes);
    const floor = summary(floorTimes);
    return {
      target: target.name,
      mcpMs: mcp,
      floorMs: floor,
      overheadP50Ms: round(mcp.p50 - floor.p50),
      overheadP99Ms: round(mcp.p99 - floor.p99),
      ratioP50: round(mcp.p50 / floor.p50, 2),
    };
  });
}

export async function run({ calls = 300, blocks = 10, warmup = 50, http, baseline } = {}) {
  await ensureDistCopy();
  http ??= await httpAvailable();
  // Each group is measured together; the baseline build beside ours.
  const groups = [
    [() => stdioRaw('2025'), ...(baseline ? [() => stdioRaw('2025', baseline, 'baseline: ')] : [])],
    [() => stdioRaw('2026')],
    [stdioSdk],
    ...(http ? [[() => httpRaw(false)], [() => httpRaw(true)], [httpSdk]] : []),
  ];
  const rows = [];
  for (const group of groups) {
    const targets = [];
    for (const factory of group) targets.push(await factory());
    rows.push(...(await measure(targets, { calls, blocks, warmup })));
  }
  const json = { tool: TOOL, calls, blocks, warmup, http, rows };
  const markdown = [
    `### Per-call overhead (\`${TOOL}\` against the sandbox, ${calls} calls each, interleaved with the direct request)`,
    '',
    table(
      ['path', 'p50 ms', 'p99 ms', 'floor p50 ms', 'floor p99 ms', 'overhead p50 ms', 'overhead p99 ms'],
      rows.map((r) => [
        r.target,
        r.mcpMs.p50.toFixed(2),
        r.mcpMs.p99.toFixed(2),
        r.floorMs.p50.toFixed(2),
        r.floorMs.p99.toFixed(2),
        r.overheadP50Ms.toFixed(2),
        r.overheadP99Ms.toFixed(2),
      ]),
    ),
    ...(http ? [] : ['', '_HTTP rows skipped: `node dist/cli.js --http` did not start._']),
  ].join('\n');
  return { name: 'per-call', json, markdown };
}

if (isMain(import.meta.url)) {
  const opts = cliOptions();
  const result = await run({
    calls: Number(opts.calls ?? 300),
    http: opts.http === undefined ? undefined : opts.http === 'true',
    baseline: opts.baseline,
  });
  await saveJson(result.name, result.json);
  console.log(result.markdown);
}
