import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import type { RecordedRequest } from './recording-server.js';

/**
 * Credentials the e2e tests give the spawned server. The secrets are long and distinctive so that a leak into
 * any text (result, error, stderr) is found by a plain substring search.
 */
export const CREDENTIALS = {
  SVC_ACCESS_KEY: 'TESTACCESSKEY0001',
  SVC_SECRET_KEY: 'gw-secret-7Hq2LmX9vB4nR8tK',
  SVC_CLIENT_ID: 'generic-client-id-01',
  SVC_CLIENT_SECRET: 'generic-client-secret-Pz6Wq3Ys',
  SVC_TRANSLATION_CLIENT_ID: 'translation-client-id-02',
  SVC_TRANSLATION_CLIENT_SECRET: 'translation-client-secret-Jd5Ke8Uo',
  SVC_STUDIO_API_KEY: 'studio-api-key-Nf4Gh7Tr2Bc9',
  SVC_STUDIO_GATEWAY_KEY: 'studio-gateway-key-Vm3Xa6Ee1Lp',
} as const;

/** Values that must never appear in a result, an error or a log line. */
export const SECRETS = [
  CREDENTIALS.SVC_SECRET_KEY,
  CREDENTIALS.SVC_CLIENT_SECRET,
  CREDENTIALS.SVC_TRANSLATION_CLIENT_SECRET,
  CREDENTIALS.SVC_STUDIO_API_KEY,
  CREDENTIALS.SVC_STUDIO_GATEWAY_KEY,
];

/** Every service pointed at one recording server through SVC_GATEWAY_URL, with every credential set. */
export function fullEnv(gatewayUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return { SVC_GATEWAY_URL: gatewayUrl, ...CREDENTIALS, ...extra };
}

/**
 * Recomputes the gateway signature v2 from what arrived, independently of src/upstream/auth.ts:
 * base64(HMAC-SHA256(secretKey, METHOD + " " + URI + "\n" + timestamp + "\n" + accessKey)), URI = the raw
 * path and query as received. Also checks the timestamp is 13-digit epoch ms close to the time of receipt.
 */
export function expectGatewaySignature(
  req: RecordedRequest,
  accessKey: string = CREDENTIALS.SVC_ACCESS_KEY,
  secretKey: string = CREDENTIALS.SVC_SECRET_KEY,
): void {
  const timestamp = req.headers['x-svc-apigw-timestamp'];
  expect(typeof timestamp).toBe('string');
  expect(timestamp).toMatch(/^\d{13}$/);
  expect(Math.abs(Number(timestamp) - req.receivedAt)).toBeLessThan(5_000);
  expect(req.headers['x-svc-iam-access-key']).toBe(accessKey);
  const message = `${req.method} ${req.url}\n${String(timestamp)}\n${accessKey}`;
  const expected = createHmac('sha256', secretKey).update(message, 'utf8').digest('base64');
  expect(req.headers['x-svc-apigw-signature-v2']).toBe(expected);
  // A signed request carries no other scheme's keys.
  expect(req.headers['x-svc-apigw-api-key']).toBeUndefined();
  expect(req.headers['x-svc-studio-api-key']).toBeUndefined();
}

/** A request with no gateway-signature headers. */
export function expectNoSignature(req: RecordedRequest): void {
  expect(req.headers['x-svc-apigw-timestamp']).toBeUndefined();
  expect(req.headers['x-svc-iam-access-key']).toBeUndefined();
  expect(req.headers['x-svc-apigw-signature-v2']).toBeUndefined();
}

/** Path, and the raw `name=value` pairs of the query (still percent-encoded), sorted. */
export function splitUrl(url: string): { path: string; query: string[] } {
  const at = url.indexOf('?');
  if (at < 0) return { path: url, query: [] };
  return {
    path: url.slice(0, at),
    query: url
      .slice(at + 1)
      .split('&')
      .sort(),
  };
}

/** The JSON body of a request. */
export function jsonBody(req: RecordedRequest): unknown {
  expect(req.headers['content-type']).toMatch(/^application\/json\b/);
  return JSON.parse(req.body);
}

/** An answer of E14 (the tokenizer languages) for a recording upstream: the smallest answer a read-only tool takes. */
export const LANGUAGES = [{ language: 'english', type: 'hanaterm', method: 'sgmt', option: '+english +revert' }];
