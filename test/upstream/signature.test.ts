/**
 * Gateway signature v2 against vectors computed independently of src/upstream/auth.ts.
 *
 * Each expected value below was computed with OpenSSL, not with this code base:
 *
 *   printf '%s' "$MESSAGE" | openssl dgst -sha256 -hmac "$SECRET" -binary | base64
 *
 * where MESSAGE is METHOD + " " + URI + "\n" + TIMESTAMP + "\n" + ACCESS_KEY (bash $'...' quoting for the
 * newlines), e.g. for vector 1:
 *
 *   printf '%s' $'GET /api/v1/products?offset=0&limit=20\n1700000000000\nACCESSKEYID123' \
 *     | openssl dgst -sha256 -hmac 'SECRETKEY0123456789abcdef' -binary | base64
 *
 * The percent-encoded URI of vector 3 is the UTF-8 bytes of '한글 상품' (ed 95 9c ea b8 80 20 ec 83 81 ed 92 88,
 * from `printf '%s' '한글 상품' | od -An -tx1`) written as %XX, space as %20.
 * When openssl is on the PATH the last test also recomputes fresh vectors with it at run time.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { authHeaders, signatureV2 } from '../../src/upstream/auth.js';

interface Vector {
  what: string;
  secretKey: string;
  accessKey: string;
  method: string;
  uri: string;
  timestamp: string;
  signature: string;
}

const VECTORS: Vector[] = [
  {
    what: 'GET with a query',
    secretKey: 'SECRETKEY0123456789abcdef',
    accessKey: 'ACCESSKEYID123',
    method: 'GET',
    uri: '/api/v1/products?offset=0&limit=20',
    timestamp: '1700000000000',
    signature: 'kJ2ZlSinmMqo14wRUW+eQTj6lrxsA9496u5gaStLpD4=',
  },
  {
    what: 'POST without a query (the body is not signed)',
    secretKey: 'SECRETKEY0123456789abcdef',
    accessKey: 'ACCESSKEYID123',
    method: 'POST',
    uri: '/api/v2/apps/checkAvailableName',
    timestamp: '1700000000123',
    signature: 'rgKjKMV9GCJDoaAogixtRPmR/+AO1QkpWQTf3bUP8Ns=',
  },
  {
    what: 'GET with a percent-encoded non-ASCII query value',
    secretKey: 'SECRETKEY0123456789abcdef',
    accessKey: 'ACCESSKEYID123',
    method: 'GET',
    uri: '/api/v1/products?productName=%ED%95%9C%EA%B8%80%20%EC%83%81%ED%92%88',
    timestamp: '1712345678901',
    signature: 'ukdZFvhrr13jqjh04i33TFNZmYXMD0hn6kG6+7B2Ubk=',
  },
  {
    what: 'DELETE with an encoded path segment and another key pair',
    secretKey: 'another-secret',
    accessKey: 'AK2',
    method: 'DELETE',
    uri: '/api/v1/services/svc%2F1',
    timestamp: '1699999999999',
    signature: '5VFFqoIK2OfeDjUe3bAvdysHHQ7kbdPrp7jT/wluvwc=',
  },
];

describe('signatureV2', () => {
  it.each(VECTORS.map((v) => [v.what, v] as const))('%s', (_, v) => {
    expect(signatureV2(v.secretKey, v.method, v.uri, v.timestamp, v.accessKey)).toBe(v.signature);
  });

  it('depends on every part of the message', () => {
    const v = VECTORS[0]!;
    const base = signatureV2(v.secretKey, v.method, v.uri, v.timestamp, v.accessKey);
    expect(signatureV2(v.secretKey + 'x', v.method, v.uri, v.timestamp, v.accessKey)).not.toBe(base);
    expect(signatureV2(v.secretKey, 'POST', v.uri, v.timestamp, v.accessKey)).not.toBe(base);
    expect(signatureV2(v.secretKey, v.method, `${v.uri}1`, v.timestamp, v.accessKey)).not.toBe(base);
    expect(signatureV2(v.secretKey, v.method, v.uri, '1700000000001', v.accessKey)).not.toBe(base);
    expect(signatureV2(v.secretKey, v.method, v.uri, v.timestamp, 'ACCESSKEYID124')).not.toBe(base);
  });
});

describe('authHeaders', () => {
  it.each(VECTORS.map((v) => [v.what, v] as const))('gateway signature: %s', (_, v) => {
    const headers = authHeaders(
      { scheme: 'gateway-signature', keys: { accessKey: v.accessKey, secretKey: v.secretKey } },
      { method: v.method, uri: v.uri, now: Number(v.timestamp), requestId: 'unused' },
    );
    expect(headers).toEqual({
      'x-svc-apigw-timestamp': v.timestamp,
      'x-svc-iam-access-key': v.accessKey,
      'x-svc-apigw-signature-v2': v.signature,
    });
  });

  it('the timestamp is whole epoch milliseconds, 13 digits', () => {
    const headers = authHeaders(
      { scheme: 'gateway-signature', keys: { accessKey: 'ACCESSKEYID123', secretKey: 'SECRETKEY0123456789abcdef' } },
      { method: 'GET', uri: '/api/v1/products?offset=0&limit=20', now: 1700000000000.75, requestId: 'unused' },
    );
    expect(headers['x-svc-apigw-timestamp']).toBe('1700000000000');
    expect(headers['x-svc-apigw-signature-v2']).toBe('kJ2ZlSinmMqo14wRUW+eQTj6lrxsA9496u5gaStLpD4=');
  });

  it('application key pair, upper-case names (E3)', () => {
    const headers = authHeaders(
      { scheme: 'app-key-upper', keys: { clientId: 'cid', clientSecret: 'csecret' } },
      { method: 'POST', uri: '/nmt/v1/translation', now: 1700000000000, requestId: 'unused' },
    );
    expect(headers).toEqual({ 'X-SVC-APIGW-API-KEY-ID': 'cid', 'X-SVC-APIGW-API-KEY': 'csecret' });
  });

  it('application key pair, lower-case names (E5)', () => {
    const headers = authHeaders(
      { scheme: 'app-key-lower', keys: { clientId: 'cid', clientSecret: 'csecret' } },
      { method: 'GET', uri: '/map-reversegeocode/v2/gc?coords=1%2C2', now: 1700000000000, requestId: 'unused' },
    );
    expect(headers).toEqual({ 'x-svc-apigw-api-key-id': 'cid', 'x-svc-apigw-api-key': 'csecret' });
  });

  it('text-generation keys with the request id (E12)', () => {
    const headers = authHeaders(
      { scheme: 'studio', keys: { apiKey: 'studio-key', gatewayKey: 'gw-key' } },
      { method: 'POST', uri: '/testapp/v1/completions/LK-D2', now: 1700000000000, requestId: 'req-123' },
    );
    expect(headers).toEqual({
      'X-SVC-STUDIO-API-KEY': 'studio-key',
      'X-SVC-APIGW-API-KEY': 'gw-key',
      'X-SVC-STUDIO-REQUEST-ID': 'req-123',
    });
  });
});

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

describe('cross-check with openssl at run time', () => {
  it.skipIf(!hasOpenssl())('fresh random vectors agree with `openssl dgst -sha256 -hmac`', () => {
    for (let i = 0; i < 3; i++) {
      const secretKey = `k${Math.random().toString(36).slice(2)}`;
      const accessKey = `A${Math.random().toString(36).slice(2).toUpperCase()}`;
      const timestamp = String(1_700_000_000_000 + Math.floor(Math.random() * 1e10));
      const uri = `/api/v1/products?productName=${encodeURIComponent(`상품 ${i}`)}&limit=${i + 1}`;
      const message = `GET ${uri}\n${timestamp}\n${accessKey}`;
      const expected = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secretKey, '-binary'], {
        input: message,
      }).toString('base64');
      expect(signatureV2(secretKey, 'GET', uri, timestamp, accessKey)).toBe(expected);
    }
  });
});
