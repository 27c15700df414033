/**
 * Telemetry off costs nothing: a start without the OTEL_* variables loads no OpenTelemetry code (a module hook records
 * every file the process loads), and one with them loads the telemetry chunk. An unreachable collector fails no call
 * and is said once on stderr.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_PATH, spawnServer, textOf } from '../../helpers/spawn-server.js';
import { startRecordingServer, type RecordingServer } from '../../helpers/recording-server.js';
import { fullEnv } from '../../helpers/upstream.js';
import { validAnswer } from '../../helpers/valid-answers.js';

describe('what a start loads', () => {
  let dir: string;
  let upstream: RecordingServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-telemetry-load-'));
    // Node's synchronous module hooks, which see require() as well as import: each URL the process loads is appended
    // to the file LOADED_LOG names.
    writeFileSync(
      join(dir, 'register.mjs'),
      "import { appendFileSync } from 'node:fs';\n" +
        "import { registerHooks } from 'node:module';\n" +
        'registerHooks({\n' +
        '  load(url, context, next) {\n' +
        "    appendFileSync(process.env.LOADED_LOG, url + '\\n');\n" +
        '    return next(url, context);\n' +
        '  },\n' +
        '});\n',
    );
    upstream = await startRecordingServer();
    upstream.setFallback(validAnswer);
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await upstream?.close();
  });

  /** Starts the server, makes one tool call, ends it; the files it loaded. */
  async function loadedBy(name: string, env: Record<string, string>): Promise<string[]> {
    const log = join(dir, `${name}.log`);
    writeFileSync(log, '');
    const client = new Client({ name: 'load-test', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', pathToFileURL(join(dir, 'register.mjs')).href, CLI_PATH],
        env: { PATH: process.env.PATH ?? '', LOADED_LOG: log, ...fullEnv(upstream.url), ...env },
        stderr: 'pipe',
      }),
    );
    const result = await client.callTool({
      name: 'recommendation_get_default_schema',
      arguments: { datasetType: 'user' },
    });
    expect(result.isError).toBeFalsy();
    await client.close();
    return readFileSync(log, 'utf8').split('\n').filter(Boolean);
  }

  it('loads no OpenTelemetry code without the OTEL_* variables, and the telemetry chunk with them', async () => {
    const off = await loadedBy('off', { OTEL_SERVICE_NAME: 'named-but-off' });
    // The hook sees what Node loads (the command, the chunks the server requires), not the server's own file, which
    // dist/cli.js runs through V8's code cache.
    expect(off.some((url) => url.endsWith('/dist/cli.js'))).toBe(true);
    expect(off.filter((url) => /open-telemetry|opentelemetry/.test(url))).toEqual([]);

    const disabled = await loadedBy('disabled', {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      OTEL_SDK_DISABLED: 'true',
    });
    expect(disabled.filter((url) => /open-telemetry|opentelemetry/.test(url))).toEqual([]);

    const on = await loadedBy('on', {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:9/v1/traces',
      SVC_MCP_SHUTDOWN_GRACE_MS: '200',
    });
    expect(on.filter((url) => url.includes('/chunks/open-telemetry-'))).toHaveLength(1);
  }, 60_000);
});

describe('an unreachable collector', () => {
  it('fails no call, and is said once on stderr without its token', async () => {
    const port = await closedPort();
    const upstream = await startRecordingServer();
    upstream.setFallback(validAnswer);
    const token = 'collector-token-Xy7Wq2Pz9';
    try {
      const server = await spawnServer(
        fullEnv(upstream.url, {
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
          OTEL_EXPORTER_OTLP_HEADERS: `x-token=${token}`,
          OTEL_METRIC_EXPORT_INTERVAL: '1000',
          SVC_MCP_SHUTDOWN_GRACE_MS: '2000',
        }),
      );
      for (const datasetType of ['user', 'item', 'interaction']) {
        const result = await server.call('recommendation_get_default_schema', { datasetType });
        expect(result.isError, textOf(result)).toBeFalsy();
      }
      await server.close();
      const said = server
        .stderr()
        .split('\n')
        .filter((line) => line.includes('telemetry:'));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/an export to the OpenTelemetry collector failed \(.+\); calls are not affected/);
      expect(server.stderr()).not.toContain(token);
    } finally {
      await upstream.close();
    }
  }, 30_000);
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
