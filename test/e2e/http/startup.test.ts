import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { runCli } from '../../helpers/spawn-http.js';

it('a port already in use is a one-line error and exit 1, not a stack trace', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as AddressInfo).port;
  try {
    const { code, stderr } = await runCli(['--http', '--port', String(port)]);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      `svc-platform-mcp: cannot listen on 127.0.0.1:${port}: EADDRINUSE (listen EADDRINUSE: address already in use 127.0.0.1:${port})`,
    );
  } finally {
    blocker.close();
  }
});
