/**
 * The worst of issue 13 at once, over stdio against a recording upstream on loopback: many parallel calls whose
 * answers are large (3 MiB each, under SVC_MAX_RESPONSE_BYTES), a client that reads stdout slowly, upstream resets,
 * error bodies of 1 MiB, upstream answers that echo every secret (as is, upper-cased, URL-encoded, base64,
 * \u-escaped), destructive calls that never get an answer, and SIGTERM in the middle of it all.
 *
 * It asserts that the server's peak memory (VmHWM) stays under PEAK_RSS_BOUND, that every request the client wrote
 * gets an answer (a result, or an error with its reason), that no secret appears on stdout or stderr, and that the
 * process exits 0, the calls still running at the end of its grace period cut off.
 */
import { afterAll, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  startRecordingServer,
  type RecordedRequest,
  type RecordingServer,
  type Reply,
} from '../../helpers/recording-server.js';
import { resultText, spawnRawStdio, type RawStdioServer, type RpcLine } from '../../helpers/raw-stdio.js';
import { waitFor } from '../../helpers/spawn-http.js';
import { CREDENTIALS, SECRETS, fullEnv } from '../../helpers/upstream.js';

const MiB = 1024 * 1024;
/**
 * The bound this test holds the server to. 16 calls run at once (SVC_MAX_CONCURRENT_CALLS), each holding one 3 MiB
 * body and what is parsed from it; before issue 13 the same load grew without limit (2.3 GB for 16 answers of
 * 16 MiB, and out of memory for 64). Raised from 400 MiB when the redactor learnt every spelling a secret may be
 * echoed in (issue 28): it reads each answer through its decoded views, and peaks measured 320-370 MiB here on an
 * idle machine (Node 20, 24) but 400-460 MiB with the suite's other files beside it.
 */
const PEAK_RSS_BOUND = 512 * MiB;
const GRACE_MS = 4_000;
/** Calls per kind; with 16 running and 64 waiting at most, some of them are refused as busy. */
const PER_KIND = 20;

/** Every way an upstream might echo a secret back. */
function echoes(secret: string): string[] {
  return [
    secret,
    secret.toUpperCase(),
    encodeURIComponent(secret),
    Buffer.from(secret).toString('base64'),
    `authorization: ${secret}`,
  ];
}
const ECHOED = SECRETS.flatMap(echoes).join(' ');

/** A valid E7 answer of about 3 MiB whose first items echo every secret. */
function largeProductPage(): string {
  const content = Array.from({ length: 7_000 }, (_, i) => ({
    productId: `p-${i}`,
    productName: `product ${i}`,
    productDescription: i < 10 ? `${ECHOED} @@ESCAPED@@` : 'd'.repeat(380),
    isPublished: i % 2 === 0,
    subscriptionCode: 'PUBLIC',
  }));
  const json = JSON.stringify({ initialCount: content.length, productPage: { total: content.length, content } });
  // JSON's \u escape of the studio gateway key, which a plain substring search would miss.
  const escaped = [...CREDENTIALS.SVC_STUDIO_GATEWAY_KEY]
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .join('');
  return json.replaceAll('@@ESCAPED@@', escaped);
}

const LARGE = largeProductPage();
const HUGE_DETAILS = 'x'.repeat(MiB);

/** The upstream's answer, by what the call asked for. */
function upstreamReply(req: RecordedRequest): Reply {
  if (req.url.includes('productName=reset')) return { reset: true };
  if (req.url.startsWith('/api/v1/products')) {
    return {
      status: 200,
      body: LARGE,
      headers: { 'content-type': 'application/json' },
      delayMs: 50 + (req.url.length % 7) * 40,
    };
  }
  if (req.url.includes('/migrate')) return { hang: true };
  // Translation: an error that echoes the credentials it was sent, with a 1 MiB details field.
  return {
    status: 400,
    body: { errorCode: 'N2MT05', errorMessage: `bad request from ${ECHOED}`, details: `${HUGE_DETAILS} ${ECHOED}` },
  };
}

/** The calls: large answers, resets, large error bodies, and destructive calls that hang. */
function calls(): { id: string; params: { name: string; arguments: Record<string, unknown> } }[] {
  const list = [];
  for (let i = 0; i < PER_KIND; i++) {
    list.push({
      id: `large-${i}`,
      params: { name: 'apigateway_list_products', arguments: { productName: `large ${i}` } },
    });
    list.push({
      id: `large2-${i}`,
      params: { name: 'apigateway_list_products', arguments: { productName: `large too ${i}` } },
    });
    list.push({
      id: `reset-${i}`,
      params: { name: 'apigateway_list_products', arguments: { productName: `reset ${i}` } },
    });
    list.push({
      id: `error-${i}`,
      params: { name: 'translation_translate_text', arguments: { source: 'ko', target: 'en', text: `안녕 ${i}` } },
    });
    if (i < 4)
      list.push({
        id: `hang-${i}`,
        params: { name: 'kms_migrate_key', arguments: { keyTag: `k${i}`, targetRegion: 'JPN', confirm: `k${i}` } },
      });
  }
  return list;
}

/** Peak resident set size so far (Linux), in bytes. */
function peakRss(pid: number): number {
  const kb = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmHWM for ${pid}`);
  return Number(kb) * 1024;
}

let upstream: RecordingServer | undefined;
let server: RawStdioServer | undefined;
afterAll(async () => {
  server?.kill();
  await upstream?.close();
});

it('under parallel large answers, a slow reader, resets, echoed secrets and SIGTERM: bounded memory, every request answered, no secret, exit 0', async () => {
  upstream = await startRecordingServer();
  upstream.setFallback(upstreamReply);
  server = spawnRawStdio(
    [],
    fullEnv(upstream.url, { SVC_MCP_SHUTDOWN_GRACE_MS: String(GRACE_MS), SVC_TIMEOUT_MS: '20000' }),
  );
  const pid = server.child.pid!;
  await server.initialize();

  // A slow reader: stdout is read for 10 ms in every 150 ms.
  server.child.stdout.pause();
  let reading = true;
  let peak = 0;
  const slowReader = (async () => {
    while (reading) {
      server!.child.stdout.resume();
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (reading) server!.child.stdout.pause();
      if (server!.child.exitCode === null) peak = Math.max(peak, peakRss(pid));
      await new Promise((resolve) => setTimeout(resolve, 140));
    }
  })();

  const sent = calls();
  server.child.stdin.write(
    sent.map(({ id, params }) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params })}\n`).join(''),
  );

  // SIGTERM once the upstream has seen most kinds of call, with large answers still being written.
  await waitFor(
    () => upstream!.requests.filter((r) => r.url.startsWith('/api/v1/products?productName=large')).length >= 12,
    30_000,
    'large calls to start',
  );
  await waitFor(
    () => upstream!.requests.some((r) => r.url.includes('/migrate')),
    30_000,
    'a destructive call to reach the upstream',
  );
  const answeredBeforeSignal = server.messages.length;
  server.child.kill('SIGTERM');
  // Still slow for a while after the signal, then the client reads everything.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  reading = false;
  await slowReader;
  server.child.stdout.resume();

  const { code, signal } = await server.exited;
  const stderr = server.stderr();
  expect({ code, signal }, stderr.slice(-2000)).toEqual({ code: 0, signal: null });
  expect(peak).toBeGreaterThan(0);
  expect(peak, `peak RSS ${(peak / MiB).toFixed(0)} MiB`).toBeLessThan(PEAK_RSS_BOUND);

  // Every request answered exactly once: a result, or an error that says why.
  const byId = new Map<unknown, RpcLine[]>();
  for (const message of server.messages)
    if (message.id !== undefined && !('method' in message))
      byId.set(message.id, [...(byId.get(message.id) ?? []), message]);
  for (const { id } of sent) {
    const answers = byId.get(id) ?? [];
    expect(answers, `answers to ${id}`).toHaveLength(1);
    const answer = answers[0]!;
    if (answer.error) expect(answer.error.message, id).toMatch(/shutting|busy/i);
    else if (answer.result?.isError) expect(resultText(answer), id).toMatch(/^\S+ failed \[[a-z_]+\]: \S/);
  }
  const outcome = (prefix: string) =>
    sent
      .filter(({ id }) => id.startsWith(prefix))
      .map(({ id }) => {
        const answer = byId.get(id)![0]!;
        if (answer.error) return 'refused';
        return answer.result?.isError ? / failed \[([a-z_]+)\]/.exec(resultText(answer))![1] : 'ok';
      });
  const large = [...outcome('large-'), ...outcome('large2-')];
  // Some large answers arrived in full (lists shortened to the result limit), before and after the signal.
  expect(large.filter((o) => o === 'ok').length).toBeGreaterThan(4);
  for (const { id } of sent.filter((c) => c.id.startsWith('large'))) {
    const answer = byId.get(id)![0]!;
    if (answer.result && !answer.result.isError) expect(JSON.stringify(answer.result).length).toBeLessThan(110_000);
  }
  // The destructive calls that hung were cut off, at the end of the grace period or of SVC_TIMEOUT_MS (on a loaded
  // machine the signal may come after it), and say their request went out.
  const hung = sent.filter((c) => c.id.startsWith('hang-')).map(({ id }) => byId.get(id)![0]!);
  for (const answer of hung) {
    if (answer.result)
      expect(resultText(answer), String(answer.id)).toMatch(
        /\[(shutting_down|timeout)\].*may have reached the upstream|\[busy\]/,
      );
  }
  if (hung.some((answer) => answer.result && resultText(answer).includes('[shutting_down]')))
    expect(stderr).toContain(`"event":"shutdown_grace_expired","graceMs":${GRACE_MS}`);
  expect(outcome('error-').filter((o) => o === 'ok')).toHaveLength(0);
  expect(outcome('reset-').filter((o) => o === 'ok')).toHaveLength(0);
  expect(server.messages.length).toBeGreaterThan(answeredBeforeSignal);

  // Nothing but JSON-RPC on stdout; no secret anywhere, in any of the forms the upstream used.
  expect(server.garbage).toEqual([]);
  const stdout = JSON.stringify(server.messages);
  for (const secret of SECRETS) {
    for (const form of [...echoes(secret), JSON.stringify(secret).slice(1, -1)]) {
      expect(stdout.includes(form), `stdout holds ${form}`).toBe(false);
      expect(stderr.includes(form), `stderr holds ${form}`).toBe(false);
    }
  }
  expect(stdout.toLowerCase()).not.toContain(CREDENTIALS.SVC_STUDIO_GATEWAY_KEY.toLowerCase());
  // No error carried the 1 MiB details whole.
  for (const message of server.messages) expect(JSON.stringify(message).length).toBeLessThan(200_000);
}, 90_000);
