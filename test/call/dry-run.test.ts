import { describe, expect, it } from 'vitest';
import { dryRunReply } from '../../src/call/dry-run.js';

const dryRunOf = (headers: Record<string, string>) => {
  const reply = dryRunReply({ method: 'POST', url: 'https://example.test/x', headers, body: '{"a":1}' });
  return (reply as { json: { dryRun: { headers: Record<string, string>; note: string; body: unknown } } }).json.dryRun;
};

describe('dry-run reply', () => {
  it('gateway signature: shows timestamp and access key, redacts the signature and says a real send signs again', () => {
    const dry = dryRunOf({
      'x-svc-apigw-timestamp': '1700000000000',
      'x-svc-iam-access-key': 'AK',
      'x-svc-apigw-signature-v2': 'c2lnbmF0dXJl',
      accept: 'application/json',
    });
    expect(dry.headers).toEqual({
      'x-svc-apigw-timestamp': '1700000000000',
      'x-svc-iam-access-key': 'AK',
      'x-svc-apigw-signature-v2': '[redacted]',
      accept: 'application/json',
    });
    expect(dry.body).toEqual({ a: 1 });
    expect(dry.note).toBe(
      'Nothing was sent. Nothing upstream was checked either: not whether the target exists, nor whether the call would succeed. The signature (x-svc-apigw-signature-v2) is redacted: a real send signs again, with a fresh ' +
        'timestamp (x-svc-apigw-timestamp), on each attempt.',
    );
  });

  it('key pairs: shows the key id, redacts the secret key and names it', () => {
    const dry = dryRunOf({ 'X-SVC-APIGW-API-KEY-ID': 'client-id', 'X-SVC-APIGW-API-KEY': 'client-secret' });
    expect(dry.headers).toEqual({ 'X-SVC-APIGW-API-KEY-ID': 'client-id', 'X-SVC-APIGW-API-KEY': '[redacted]' });
    expect(dry.note).toBe(
      'Nothing was sent. Nothing upstream was checked either: not whether the target exists, nor whether the call would succeed. Secret keys redacted: x-svc-apigw-api-key.',
    );
  });
});
