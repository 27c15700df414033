/** The order of the HTTP server's gates (src/transports/http-gates.ts): which run, and in which order. */
import { describe, expect, it } from 'vitest';
import { gates } from '../../src/transports/http-gates.js';
import { AUTH_BACKOFF, FailureBackoff } from '../../src/transports/http-clients.js';
import { bearerChecker, hostPolicy } from '../../src/transports/http-security.js';
import type { ResourceServer } from '../../src/transports/oauth/resource-server.js';

const common = {
  draining: () => false,
  policy: () => hostPolicy({ host: '127.0.0.1', port: 3000 }),
  failures: new FailureBackoff({ ...AUTH_BACKOFF, now: () => 0 }),
};

describe('the gates of a request', () => {
  it('without a token: drain, Host, Origin, CORS, then the path', () => {
    expect(gates(common).map((gate) => gate.name)).toEqual(['drain', 'host', 'origin', 'cors', 'path']);
  });

  it('with a static token: its check after CORS (a preflight carries no credentials)', () => {
    const names = gates({ ...common, checkBearer: bearerChecker('x'.repeat(32)) }).map((gate) => gate.name);
    expect(names).toEqual(['drain', 'host', 'origin', 'cors', 'bearer', 'path']);
  });

  it('in OAuth mode: the public metadata before Origin, the token after CORS', () => {
    const oauth = { metadataPaths: new Set<string>() } as unknown as ResourceServer;
    const names = gates({ ...common, oauth }).map((gate) => gate.name);
    expect(names).toEqual(['drain', 'host', 'oauth-metadata', 'origin', 'cors', 'oauth', 'path']);
  });
});
