// Issue 28, point 4: a 4 MiB answer of tiny items (E7 with ~100,000 products). In process: the time per MiB of each
// stage from arrival to result, the longest the event loop waited meanwhile, and the most the call held as a multiple
// of the answer's size. Against the built server over HTTP: how long another client's tools/list waits behind one
// such answer (beside its time on an idle server), and the server's peak memory (VmHWM) with sixteen of them at once.
// Issue 32, point 7: the same with the tiniest items, 4 MiB of `{}` (1.4 million of them).
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { withBundled } from '../scripts/lib/import-bundled.mjs';
import { stop } from './lib/proc.mjs';
import { ROOT, isMain, saveJson } from './lib/results.mjs';
import { startCli } from './lib/servers.mjs';
import { median, round, summary, table } from './lib/stats.mjs';

const CREDENTIALS = { SVC_ACCESS_KEY: 'BENCHACCESSKEY', SVC_SECRET_KEY: 'bench-secret-key-0123456789' };
const TOOL = { name: 'apigateway_list_products', arguments: {} };
const MiB = 1024 * 1024;

const peakMiB = (pid) =>
  round(Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024, 1);

/** An upstream that answers every request with `body`, and counts the answers it has handed to its socket. */
async function upstream(body) {
  const state = { sent: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body, () => (state.sent += 1)));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    state,
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function client(url) {
  const c = new Client({ name: 'bench', version: '0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

/** tools/list, again and again, from `other` until `done` settles: the time of each. */
async function listsDuring(other, done) {
  const times = [];
  let finished = false;
  void done.finally(() => (finished = true));
  while (!finished) {
    const t = performance.now();
    await other.listTools();
    times.push(performance.now() - t);
  }
  return times;
}

async function overHttp(body, runs) {
  const up = await upstream(body);
  const { child, mcpUrl } = await startCli(['--http', '--port', '0'], {
    env: { SVC_GATEWAY_URL: up.url, ...CREDENTIALS },
  });
  try {
    const other = await client(mcpUrl);
    const idle = [];
    for (let i = 0; i < 30; i += 1) {
      const t = performance.now();
      await other.listTools();
      idle.push(performance.now() - t);
    }
    const reader = await client(mcpUrl);
    await reader.callTool(TOOL, undefined, { timeout: 120_000 }); // warm-up
    const behindOne = [];
    const callMs = [];
    for (let r = 0; r < runs; r += 1) {
      const sent = up.state.sent;
      const t = performance.now();
      const call = reader.callTool(TOOL, undefined, { timeout: 120_000 });
      while (up.state.sent === sent) await new Promise((resolve) => setTimeout(resolve, 1));
      behindOne.push(...(await listsDuring(other, call)));
      await call;
      callMs.push(performance.now() - t);
    }
    const readers = await Promise.all(Array.from({ length: 16 }, () => client(mcpUrl)));
    const t = performance.now();
    const sixteen = Promise.all(readers.map((c) => c.callTool(TOOL, undefined, { timeout: 300_000 })));
    const behindSixteen = await listsDuring(other, sixteen);
    const results = await sixteen;
    const sixteenMs = performance.now() - t;
    await Promise.all([other, reader, ...readers].map((c) => c.close()));
    return {
      toolsListIdle: summary(idle),
      toolsListBehindOne: summary(behindOne),
      oneAnswerMs: round(median(callMs)),
      sixteenOk: results.filter((r) => !r.isError).length,
      sixteenMs: round(sixteenMs),
      toolsListBehindSixteen: summary(behindSixteen),
      peakMiB: peakMiB(child.pid),
    };
  } finally {
    await stop(child);
    await up.close();
  }
}

export async function run({ runs = 5, http = true } = {}) {
  const { stages, bodies } = await withBundled(`${ROOT}bench/fixtures/answer-path.ts`, async (fixture) => ({
    stages: await fixture.run(runs),
    bodies: {
      'tiny products': fixture.tinyAnswer(4 * MiB - 4096),
      'empty objects `{}`': fixture.tinyAnswer(4 * MiB - 4096, 'empty objects `{}`'),
    },
  }));
  const servers = {};
  if (http) for (const [answer, body] of Object.entries(bodies)) servers[answer] = await overHttp(body, runs);
  const ms = (values) => median(values).toFixed(0);
  const markdown = [
    '### Large answers: 4 MiB of tiny items (E7, ~100,000 products)',
    '',
    table(
      [
        'answer',
        'redact ms/MiB',
        'read ms/MiB',
        'render ms/MiB',
        'egress ms',
        'longest wait of the event loop ms',
        'most held × answer size',
      ],
      stages.map(({ answer, times }) => [
        answer,
        ms(times.redact),
        ms(times.read),
        ms(times.render),
        ms(times.egress),
        `${ms(times.longestWait)} (max ${Math.max(...times.longestWait).toFixed(0)})`,
        `${median(times.heldPerSize).toFixed(1)} (max ${Math.max(...times.heldPerSize).toFixed(1)})`,
      ]),
    ),
    ...Object.entries(servers).flatMap(([answer, server]) => [
      '',
      table(
        [`over HTTP, ${answer}`, 'p50 ms', 'p90 ms', 'max ms'],
        [
          ['tools/list, idle server', server.toolsListIdle],
          ['tools/list, behind one 4 MiB answer', server.toolsListBehindOne],
          ['tools/list, behind sixteen at once', server.toolsListBehindSixteen],
        ].map(([what, s]) => [what, s.p50.toFixed(0), s.p90.toFixed(0), s.max.toFixed(0)]),
      ),
      '',
      `One answer: ${server.oneAnswerMs.toFixed(0)} ms from call to result. Sixteen at once: ${server.sixteenOk} of 16 ` +
        `answered in ${server.sixteenMs.toFixed(0)} ms; server peak RSS ${server.peakMiB.toFixed(0)} MiB.`,
    ]),
  ].join('\n');
  return { name: 'answers', json: { stages, servers }, markdown };
}

if (isMain(import.meta.url)) {
  const result = await run();
  await saveJson(result.name, result.json);
  console.log(result.markdown);
}
