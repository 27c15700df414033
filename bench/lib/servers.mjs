import { spawn } from 'node:child_process';
import { cp, rm } from 'node:fs/promises';
import { waitForStderr } from './proc.mjs';
import { BUILD, ROOT } from './results.mjs';

/**
 * The benchmarks run a private copy of dist/, taken when they start: on a shared machine, `npm test` elsewhere
 * rebuilds dist/ (and deletes it first), which would break a run half-way.
 */
export const CLI = `${BUILD}dist/cli.js`;
let copied;
export function ensureDistCopy() {
  return (copied ??= (async () => {
    await rm(`${BUILD}dist`, { recursive: true, force: true });
    await cp(`${ROOT}dist`, `${BUILD}dist`, { recursive: true });
  })());
}

/** The sandbox's line on stderr: 'SANDBOX MODE — … simulator at http://127.0.0.1:PORT (…)'. */
export const SANDBOX_LINE = /SANDBOX MODE.*? at (http:\/\/[^\s]+)/;
/** The HTTP transport's line on stderr: 'listening on http://127.0.0.1:PORT/mcp (…)'. */
const LISTENING_LINE = /listening on (http:\/\/[^\s]+)/;

/**
 * A clean environment: none of the caller's SVC_* settings or proxies leak into a measurement. The benchmarks' many
 * sessions all come from one loopback address, which the server counts as one client: its session limit is lifted.
 */
export function benchEnv(extra = {}) {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SVC_MCP_MAX_SESSIONS: '10000',
    SVC_MCP_MAX_SESSIONS_PER_CLIENT: '10000',
    ...extra,
  };
}

/**
 * Starts `node dist/cli.js …args` (or another build's cli.js) and waits for the lines it prints on stderr: the sandbox
 * URL with --sandbox,
 * the MCP URL with --http. stderr keeps being drained (the server logs every call there; a full pipe would stall it).
 */
export async function startCli(args, { env, cli = CLI } = {}) {
  await ensureDistCopy();
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: benchEnv(env),
  });
  const sandbox = args.includes('--sandbox') ? waitForStderr(child, SANDBOX_LINE) : Promise.resolve(undefined);
  const http = args.includes('--http') ? waitForStderr(child, LISTENING_LINE) : Promise.resolve(undefined);
  const [sandboxMatch, httpMatch] = await Promise.all([sandbox, http]);
  child.stderr.resume();
  return { child, sandboxUrl: sandboxMatch?.[1], mcpUrl: httpMatch?.[1] };
}

/** True when `node dist/cli.js --http` serves (the transport may not be written yet when the bench runs). */
export async function httpAvailable() {
  await ensureDistCopy();
  const child = spawn(process.execPath, [CLI, '--http', '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: benchEnv(),
  });
  try {
    await waitForStderr(child, LISTENING_LINE, 10_000);
    return true;
  } catch {
    return false;
  } finally {
    child.kill('SIGTERM');
  }
}
