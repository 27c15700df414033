/**
 * The sandbox's gateway-side check of signature v2, against vector 3 of test/upstream/signature.test.ts (computed
 * with OpenSSL, as described there).
 */
import { describe, expect, it } from 'vitest';
import { verifyGatewaySignature } from '../../src/sandbox/signature-check.js';

const v = {
  secretKey: 'SECRETKEY0123456789abcdef',
  accessKey: 'ACCESSKEYID123',
  method: 'GET',
  uri: '/api/v1/products?productName=%ED%95%9C%EA%B8%80%20%EC%83%81%ED%92%88',
  timestamp: '1712345678901',
  signature: 'ukdZFvhrr13jqjh04i33TFNZmYXMD0hn6kG6+7B2Ubk=',
};

describe('verifyGatewaySignature (the sandbox side)', () => {
  const headers = {
    'x-svc-apigw-timestamp': v.timestamp,
    'x-svc-iam-access-key': v.accessKey,
    'x-svc-apigw-signature-v2': v.signature,
  };
  const keys = { accessKey: v.accessKey, secretKey: v.secretKey };
  const at = Number(v.timestamp);

  it('accepts the vector within five minutes', () => {
    expect(verifyGatewaySignature(headers, v.method, v.uri, keys, at + 299_000)).toEqual({ ok: true });
  });
  it('refuses a timestamp more than five minutes off', () => {
    expect(verifyGatewaySignature(headers, v.method, v.uri, keys, at + 301_000).ok).toBe(false);
  });
  it('refuses another URI (e.g. the decoded one)', () => {
    expect(verifyGatewaySignature(headers, v.method, '/api/v1/products?productName=한글 상품', keys, at).ok).toBe(
      false,
    );
  });
  it('refuses a 10-digit (seconds) timestamp', () => {
    expect(
      verifyGatewaySignature({ ...headers, 'x-svc-apigw-timestamp': '1712345678' }, v.method, v.uri, keys, at).ok,
    ).toBe(false);
  });
  it('refuses a signature that differs in one character, and another access key', () => {
    const flipped = `${v.signature.slice(0, -2)}A=`;
    expect(
      verifyGatewaySignature({ ...headers, 'x-svc-apigw-signature-v2': flipped }, v.method, v.uri, keys, at).ok,
    ).toBe(false);
    expect(verifyGatewaySignature({ ...headers, 'x-svc-iam-access-key': 'OTHER' }, v.method, v.uri, keys, at).ok).toBe(
      false,
    );
  });
});
