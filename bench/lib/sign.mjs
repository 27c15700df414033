import { createHmac } from 'node:crypto';

/** The sandbox's published demo credentials (src/sandbox/credentials.ts, README). */
const DEMO = { accessKey: 'sandbox-access-key', secretKey: 'sandbox-secret-key' };

/**
 * Gateway signature v2 (the spec does not show it), written out rather than imported, so the floor shares no code with
 * the server:
 * base64(HMAC-SHA256(secretKey, METHOD + " " + URI + "\n" + timestamp + "\n" + accessKey)), URI = path?query as sent.
 */
export function gatewayHeaders(method, uri, now = Date.now(), { accessKey, secretKey } = DEMO) {
  const timestamp = String(now);
  const signature = createHmac('sha256', secretKey)
    .update(`${method} ${uri}\n${timestamp}\n${accessKey}`)
    .digest('base64');
  return {
    'x-svc-apigw-timestamp': timestamp,
    'x-svc-iam-access-key': accessKey,
    'x-svc-apigw-signature-v2': signature,
  };
}
