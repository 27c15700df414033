import { readFileSync, readdirSync } from 'node:fs';

/**
 * CPU time a process has used so far, all its threads, in ms (Linux: /proc/PID/task/TID/schedstat, in ns); NaN
 * elsewhere. Unlike the time on the clock, other work on a busy machine does not stretch it.
 */
export function cpuTimeMs(pid) {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    }
    return ns / 1e6;
  } catch {
    return NaN;
  }
}

/** Resident set size of a process in KiB, from /proc (Linux): current (VmRSS) and peak (VmHWM). */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
    return { rssKiB: field('VmRSS'), hwmKiB: field('VmHWM') };
  } catch {
    return { rssKiB: NaN, hwmKiB: NaN };
  }
}

/** Resolves with the first match of `pattern` on the child's stderr, or rejects after `ms`. */
export function waitForStderr(child, pattern, ms = 20_000) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out waiting for ${pattern} on stderr; got:\n${seen}`));
    }, ms);
    const onData = (chunk) => {
      seen += chunk.toString();
      const match = seen.match(pattern);
      if (match) {
        cleanup();
        resolve(match);
      }
    };
    const onExit = (code) => {
      cleanup();
      reject(new Error(`process exited (${code}) before ${pattern}; stderr:\n${seen}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stderr.off('data', onData);
      child.off('exit', onExit);
    };
    child.stderr.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Ends a child we started and waits for it; SIGKILL if it does not go within `ms`. */
export async function stop(child, ms = 3000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin?.end();
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  await exited;
  clearTimeout(timer);
}
