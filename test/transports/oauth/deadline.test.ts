/**
 * One overall deadline for what a request waits on the authorization server: a server that answers at once and
 * then trickles its metadata or key set byte by byte (each byte resetting any idle timer) gets the token answered
 * "unavailable, timed out", logged once however many requests waited. Real HTTP on loopback, a small deadline.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { Agent } from 'undici';
import { fetchJsonWith } from '../../../src/transports/oauth/fetch-json.js';
import { KeysUnavailable } from '../../../src/transports/oauth/jwks.js';
import { tokenVerifier } from '../../../src/transports/oauth/verifier.js';
import { mintJwt } from '../../helpers/jwt-mint.js';
import { startTricklingIssuer, type TricklingIssuer } from '../../helpers/trickling-issuer.js';

const AUDIENCE = 'https://mcp.example.com/mcp';
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const JWKS = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig' }] };

let issuer: TricklingIssuer | undefined;
const agent = new Agent();
afterEach(async () => {
  await issuer?.close();
});

describe.each(['metadata', 'jwks'] as const)('a trickling %s', (trickle) => {
  it('is answered "did not answer in time" at the deadline, logged once', async () => {
    issuer = await startTricklingIssuer({ trickle, jwks: JWKS });
    const logged: Record<string, unknown>[] = [];
    const verify = tokenVerifier({
      issuer: issuer.issuer,
      audience: AUDIENCE,
      fetchJson: fetchJsonWith(async () => agent),
      deadlineMs: 300,
      now: Date.now,
      log: (entry) => logged.push(entry as Record<string, unknown>),
    });
    const now = Math.floor(Date.now() / 1000);
    const token = mintJwt(
      { iss: issuer.issuer, aud: AUDIENCE, sub: 'alice', exp: now + 300 },
      { key: privateKey, kid: 'k1', alg: 'ES256' },
    );
    const outcomes = await Promise.allSettled([verify(token), verify(token), verify(token)]);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      const error = (outcome as PromiseRejectedResult).reason as KeysUnavailable;
      expect(error).toBeInstanceOf(KeysUnavailable);
      expect(error.timedOut).toBe(true);
    }
    // The fetch itself ends at its deadline too, and says so once.
    await expect.poll(() => logged.filter((l) => l.event === 'oauth_keys_unavailable')).toHaveLength(1);
    expect(logged.find((l) => l.event === 'oauth_keys_unavailable')).toEqual({
      event: 'oauth_keys_unavailable',
      why: 'the authorization server did not answer within 300 ms (SVC_MCP_OAUTH_TIMEOUT_MS)',
    });
    // Then, for a while, nothing more is asked of it.
    const asked = issuer.requests.length;
    await expect(verify(token)).rejects.toThrow(KeysUnavailable);
    expect(issuer.requests).toHaveLength(asked);
  });
});
