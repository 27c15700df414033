// First: the schemas the start builds are made without zod's compiled parsers (./util/zod-jit.ts).
import './util/zod-jit.js';
import { readFile, readFileSync } from 'node:fs';
import { ConfigError, loadProfiles, parseCommand, usage, type Config } from './config/index.js';
import { createUpstream } from './upstream/index.js';
import { Redactor } from './util/redact.js';
import { SERVER_VERSION, createServerFactory, type ServerDeps } from './server.js';
import { serveStdio } from './transports/stdio.js';

const WARM_UP_AFTER_MS = 300;

/**
 * The process's edge: the only module that reads process.argv or the server's settings in process.env, or exits
 * (./cli.ts, which loads it, reads only what chooses the compile cache's directory).
 */
async function main(): Promise<void> {
  // A host that closed our stderr must not crash the server: the failed write's 'error' is ignored, and later
  // lines go nowhere. Logging never throws.
  process.stderr.on('error', () => {});
  // Every line to stderr passes the egress redactor (set once the secrets are known): the same one every JSON-RPC
  // message passes (server.ts).
  const egress: { redactor?: Redactor } = {};
  const log = (line: string) => {
    if (process.stderr.destroyed || process.stderr.writableEnded) return;
    try {
      process.stderr.write(`${egress.redactor ? egress.redactor.redact(line) : line}\n`);
    } catch {
      // nothing to tell, and no one to tell it to
    }
  };
  const command = parseCommand(process.argv.slice(2), process.env);
  if (command.kind === 'help') return void process.stderr.write(`${usage()}\n`);
  // The one stdout write outside the stdio transport: scripts read `--version` from stdout, and no session is open.
  if (command.kind === 'version') return void process.stdout.write(`${SERVER_VERSION}\n`);

  // Listened for from the start, so that a signal during start-up is not lost (nor kills the process mid-way).
  const shutdown = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => shutdown.abort(signal));
  const onSignal = (handler: (signal: string) => void) => {
    const fire = () => handler(String(shutdown.signal.reason));
    if (shutdown.signal.aborted) fire();
    else shutdown.signal.addEventListener('abort', fire, { once: true });
  };

  let config: Config = command.config;
  if (config.profilesFile !== undefined) {
    config = loadProfiles(config, { env: process.env, readFile: (path) => readFileSync(path, 'utf8') });
  }
  const cleanups: (() => Promise<void>)[] = [];
  if (config.sandbox) {
    // Loaded only when asked for: a production start never pays for the simulator.
    const { startSandboxes } = await import('./sandbox/index.js');
    const started = await startSandboxes(config);
    cleanups.push(started.close);
    config = started.config;
    log(
      `svc-platform-mcp: SANDBOX MODE — every service is the embedded simulator at ${started.urls.join(', ')} (demo data, not the real platform)`,
    );
  }

  const redactor = (egress.redactor = new Redactor(config.secrets));
  const upstream = createUpstream(config);
  // Loaded only when the OTEL_* variables ask for it: a start without them reads no OpenTelemetry code.
  const telemetry = config.telemetry
    ? (await import('./telemetry/open-telemetry.js')).startTelemetry(config.telemetry, { log, redactor })
    : undefined;
  // Web Crypto's randomUUID: node:crypto is loaded with the first signature, not at every start.
  const deps: ServerDeps = {
    upstream,
    now: Date.now,
    randomId: () => globalThis.crypto.randomUUID(),
    random: Math.random,
    log,
    redactor,
    telemetry,
    // The build writes the views' pages beside the chunks (scripts/build.mjs); this module is bundled into
    // dist/chunks/, so they are one directory up.
    // node:fs's callback form: node:fs/promises would load eight more of Node's modules at every start.
    readViewFile: (file) =>
      new Promise((resolve, reject) =>
        readFile(new URL(`../app-views/${file}`, import.meta.url), 'utf8', (error, text) =>
          error ? reject(error) : resolve(text),
        ),
      ),
  };
  const createServer = createServerFactory(config, deps);
  // undici and the call pipeline are loaded on the first call; hosts send initialize and tools/list at once and the
  // first tool call only after the model has thought, so load them in that idle time.
  setTimeout(() => {
    upstream.warmUp();
  }, WARM_UP_AFTER_MS).unref();

  if (config.transport === 'http') {
    const { serveHttp } = await import('./transports/http.js');
    await serveHttp(createServer, config, { log, onSignal, dispatcher: upstream.dispatcher });
  } else if (!shutdown.signal.aborted) {
    // Ends on stdin EOF, a signal or a closed stdout, after the calls in flight are answered (within the grace
    // period); then the sandbox and the connection pool are closed and the exit is clean.
    await serveStdio(createServer, process.stdin, process.stdout, {
      log,
      onSignal,
      graceMs: config.shutdownGraceMs,
      calls: createServer.calls,
    });
  }
  // A call still running now is told the server stops before its connection is cut, so that it answers
  // [shutting_down] (the request may have gone out), not a broken connection.
  createServer.calls?.stop();
  // What is buffered goes out, within the grace period: an unreachable collector does not hold the exit longer.
  await telemetry?.shutdown(config.shutdownGraceMs);
  for (const cleanup of cleanups) await cleanup();
  // destroy, not close: a call still waiting upstream after the grace period must not hold the exit.
  await upstream.destroy();
  process.exit(0);
}

/** A setting the operator can fix: one line and exit code 2; a start-up failure (port taken): one line, 1. */
const run = () =>
  main().catch((error: unknown) => {
    const configuration = error instanceof ConfigError;
    const oneLine = configuration || (error as Error)?.name === 'StartupError';
    process.stderr.write(
      `svc-platform-mcp: ${oneLine ? (error as Error).message : `fatal: ${(error as Error)?.stack ?? String(error)}`}\n`,
    );
    process.exit(configuration ? 2 : 1);
  });

void run();
