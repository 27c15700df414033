import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { CLI_PATH } from '../../helpers/spawn-server.js';

// Hosts stop stdio servers by closing stdin or with a signal; both end the process cleanly, sandbox included.
it.each(['SIGTERM', 'SIGINT'] as const)('exits 0 on %s over stdio, even with the sandbox running', async (signal) => {
  const child = spawn(process.execPath, [CLI_PATH, '--sandbox'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  while (!stderr.includes('SANDBOX MODE')) await once(child.stderr, 'data');
  child.kill(signal);
  const [code] = (await once(child, 'close')) as [number | null]; // 'close': after the last of stderr
  expect(code).toBe(0);
  // Nothing was in flight: the exit came without waiting out a grace period.
  expect(stderr).not.toContain('shutdown_grace_expired');
});

it('exits 0 when the client closes stdin', async () => {
  const child = spawn(process.execPath, [CLI_PATH, '--sandbox'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  while (!stderr.includes('SANDBOX MODE')) await once(child.stderr, 'data');
  child.stdin.end();
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).toBe(0);
});
