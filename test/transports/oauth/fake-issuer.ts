import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { NotADocument, type FetchJson } from '../../../src/transports/oauth/fetch-json.js';
import type { RefusedTokens } from '../../../src/transports/oauth/refused-tokens.js';
import { tokenVerifier } from '../../../src/transports/oauth/verifier.js';
import { mintJwt, type MintAlg } from '../../helpers/jwt-mint.js';

/**
 * An authorization server as the verifier sees it (documents by URL; what is not listed answers 404), with keys the
 * test publishes, withdraws and mints with (node:crypto), a clock the test moves, and the log lines written.
 */
export const ISSUER = 'https://sso.example.com';
export const AUDIENCE = 'https://mcp.example.com/mcp';
export const NOW_MS = 1_800_000_000_000;

export interface TestKey {
  privateKey: KeyObject;
  jwk: Record<string, unknown>;
  alg: MintAlg;
}

export function keyPair(kid: string, alg: MintAlg = 'ES256'): TestKey {
  const pair =
    alg === 'EdDSA'
      ? generateKeyPairSync('ed25519')
      : alg.startsWith('ES')
        ? generateKeyPairSync('ec', { namedCurve: { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' }[alg as 'ES256'] })
        : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey: pair.privateKey, jwk: { ...pair.publicKey.export({ format: 'jwk' }), kid, use: 'sig' }, alg };
}

export function setUp(options: { deadlineMs?: number; refused?: RefusedTokens } = {}) {
  const published: TestKey[] = [keyPair('k1')];
  const asked: string[] = [];
  const logged: Record<string, unknown>[] = [];
  let down = false;
  let now = NOW_MS;
  const fetchJson: FetchJson = async (url) => {
    asked.push(url);
    if (down) throw new Error('connection refused');
    if (url === `${ISSUER}/.well-known/openid-configuration`) return { issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` };
    if (url === `${ISSUER}/jwks`) return { keys: published.map((k) => k.jwk) };
    throw new NotADocument('HTTP 404');
  };
  const verify = tokenVerifier({
    issuer: ISSUER,
    audience: AUDIENCE,
    fetchJson,
    deadlineMs: options.deadlineMs ?? 5000,
    now: () => now,
    log: (entry) => logged.push(entry as Record<string, unknown>),
    ...(options.refused ? { refused: options.refused } : {}),
  });
  const mint = (key: TestKey, claims: Record<string, unknown> = {}, typ?: string | null) =>
    mintJwt(
      {
        iss: ISSUER,
        aud: AUDIENCE,
        sub: 'alice',
        client_id: 'agent',
        scope: 'svc.read',
        exp: now / 1000 + 300,
        ...claims,
      },
      { key: key.privateKey, kid: key.jwk.kid as string, alg: key.alg, typ },
    );
  return {
    verify,
    mint,
    published,
    asked,
    logged,
    setDown: (d: boolean) => (down = d),
    advance: (ms: number) => (now += ms),
    now: () => now,
  };
}
