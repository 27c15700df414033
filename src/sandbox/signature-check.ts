import type { IncomingHttpHeaders } from 'node:http';
import { HEADER, signatureV2, type GatewayKeys } from '../upstream/index.js';
import { timingSafeEqualText } from '../util/timing-safe.js';

/** The gateway refuses timestamps further than this from its own clock. */
const TIMESTAMP_WINDOW_MS = 5 * 60 * 1000;

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/**
 * The gateway's side of signature v2: the three headers, the 13-digit timestamp within the window, the access key
 * and the HMAC over the URI exactly as received. Uses the pure signer; everything else is the gateway's own check.
 */
export function verifyGatewaySignature(
  headers: IncomingHttpHeaders,
  method: string,
  uri: string,
  keys: GatewayKeys,
  now: number,
): VerifyResult {
  const get = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const timestamp = get(HEADER.timestamp);
  const accessKey = get(HEADER.accessKey);
  const signature = get(HEADER.signature);
  if (!timestamp || !accessKey || !signature) return { ok: false, reason: 'missing signature headers' };
  if (!/^\d{13}$/.test(timestamp)) return { ok: false, reason: 'timestamp must be epoch milliseconds (13 digits)' };
  if (Math.abs(now - Number(timestamp)) > TIMESTAMP_WINDOW_MS)
    return { ok: false, reason: 'timestamp is more than five minutes off' };
  if (accessKey !== keys.accessKey) return { ok: false, reason: 'unknown access key' };
  const expected = signatureV2(keys.secretKey, method, uri, timestamp, accessKey);
  if (!timingSafeEqualText(expected, signature)) return { ok: false, reason: 'signature mismatch' };
  return { ok: true };
}
