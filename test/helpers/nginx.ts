import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { rawRequest } from './spawn-http.js';

/** The example shipped for users; the scale-out test runs this very file. */
export const NGINX_EXAMPLE = 'deploy/nginx/svc-platform-mcp.conf';

/** The nginx binary: on PATH, or where Debian puts it (/usr/sbin is not on a normal user's PATH). */
export function findNginx(): string | undefined {
  const dirs = [
    ...(process.env.PATH ?? '').split(delimiter).filter(Boolean),
    '/usr/sbin',
    '/usr/local/sbin',
    '/usr/local/nginx/sbin',
  ];
  for (const dir of dirs) {
    const candidate = join(dir, 'nginx');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const count = (text: string, literal: string) => text.split(literal).length - 1;

/**
 * The shipped example with its two replica addresses (127.0.0.1:3001 and :3002) and its `listen 80;`
 * replaced. Throws when the example no longer contains what is replaced, so that the file users get and
 * the file the test runs cannot drift apart.
 */
function exampleFor(listenPort: number, replicaPorts: readonly [number, number]): string {
  const example = readFileSync(NGINX_EXAMPLE, 'utf8');
  const expect = (ok: boolean, what: string) => {
    if (!ok) throw new Error(`${NGINX_EXAMPLE} changed: ${what} (update test/helpers/nginx.ts)`);
  };
  expect(
    count(example, '127.0.0.1:3001') >= 2 && count(example, '127.0.0.1:3002') >= 2,
    'replicas are no longer 127.0.0.1:3001 and :3002',
  );
  expect(
    (example.match(/^\s*listen\s/gm) ?? []).length === 1 && count(example, '\n    listen 80;\n') === 1,
    'expected exactly one active `listen 80;`',
  );
  const config = example
    .replaceAll('127.0.0.1:3001', `127.0.0.1:${replicaPorts[0]}`)
    .replaceAll('127.0.0.1:3002', `127.0.0.1:${replicaPorts[1]}`)
    .replace('\n    listen 80;\n', `\n    listen 127.0.0.1:${listenPort};\n`);
  expect(!/:300[12]\b/.test(config), 'an address with port 3001 or 3002 is left');
  return config;
}

/** A port that was free a moment ago (nginx binds it itself; startNginx retries if another process took it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface NginxProcess {
  /** http://127.0.0.1:PORT */
  origin: string;
  child: ChildProcess;
  stderr(): string;
  /** The access log: method, status, upstream addresses and statuses, one request a line. */
  accessLog(): string;
  stop(): Promise<void>;
}

/**
 * Runs nginx as the current user, in the foreground, as one process (`master_process off`), with every
 * path (pid, temp files, logs) inside `dir`, the error log on stderr, and the shipped example included
 * with free ports. Resolves once nginx answers `/healthz` through to a replica.
 */
export async function startNginx(
  bin: string,
  dir: string,
  replicaPorts: readonly [number, number],
): Promise<NginxProcess> {
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    writeFileSync(join(dir, 'svc-platform-mcp.conf'), exampleFor(port, replicaPorts));
    writeFileSync(
      join(dir, 'nginx.conf'),
      [
        'daemon off;',
        'master_process off;',
        'worker_processes 1;',
        `pid ${join(dir, 'nginx.pid')};`,
        'error_log stderr warn;',
        'events { worker_connections 512; }',
        'http {',
        `    log_format upstreams '$request_method $status $upstream_addr $upstream_status';`,
        `    access_log ${join(dir, 'access.log')} upstreams;`,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (kind) => `    ${kind}_temp_path ${join(dir, `${kind}_temp`)};`,
        ),
        `    include ${join(dir, 'svc-platform-mcp.conf')};`,
        '}',
        '',
      ].join('\n'),
    );
    const child = spawn(bin, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const origin = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 10_000;
    let up = false;
    while (!up && child.exitCode === null && child.signalCode === null && Date.now() < deadline) {
      // Our replica's own answer through nginx, not any 200: the port probed free a moment ago may have been taken
      // by another test's server (one serving map tiles answered every path with a PNG), and nginx then exits.
      up = await rawRequest(`${origin}/healthz`, { method: 'GET' }).then(
        (res) => res.status === 200 && res.body === '{"status":"ok"}',
        () => false,
      );
      if (!up) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // nginx that could not bind exits: the answer came from whoever holds the port.
    if (up && (child.exitCode !== null || child.signalCode !== null)) up = false;
    if (up) {
      return {
        origin,
        child,
        stderr: () => stderr,
        accessLog: () => readFileSync(join(dir, 'access.log'), 'utf8'),
        stop: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
          child.kill('SIGTERM');
          await exited;
          clearTimeout(timer);
        },
      };
    }
    child.kill('SIGKILL');
    await exited;
    lastError = new Error(`nginx did not start on port ${port}; stderr:\n${stderr}`);
    if (!stderr.includes('Address already in use')) break;
  }
  throw lastError!;
}
