import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AuthScheme } from '../catalogue/types.js';

/** The vendor token of every header name lives here and nowhere else. */
export const VENDOR = 'svc';

/** Header names, lower-case as node sends them; the gateway treats names case-insensitively. */
export const HEADER = {
  timestamp: `x-${VENDOR}-apigw-timestamp`,
  accessKey: `x-${VENDOR}-iam-access-key`,
  signature: `x-${VENDOR}-apigw-signature-v2`,
  apiKeyId: `x-${VENDOR}-apigw-api-key-id`,
  apiKey: `x-${VENDOR}-apigw-api-key`,
  studioApiKey: `x-${VENDOR}-studio-api-key`,
  studioRequestId: `x-${VENDOR}-studio-request-id`,
} as const;

/** Upper-case spellings used by E3 (application key pair) and E12 (text-generation keys), as the spec writes them. */
export const UPPER_HEADER = {
  apiKeyId: HEADER.apiKeyId.toUpperCase(),
  apiKey: HEADER.apiKey.toUpperCase(),
  studioApiKey: HEADER.studioApiKey.toUpperCase(),
  studioRequestId: HEADER.studioRequestId.toUpperCase(),
} as const;

/** The gateway refuses timestamps further than this from its own clock. */
export const TIMESTAMP_WINDOW_MS = 5 * 60 * 1000;

export interface GatewayKeys {
  accessKey: string;
  secretKey: string;
}
export interface AppKeys {
  clientId: string;
  clientSecret: string;
}
export interface StudioKeys {
  apiKey: string;
  gatewayKey: string;
}
export type Credential =
  | { scheme: 'gateway-signature'; keys: GatewayKeys }
  | { scheme: 'app-key-upper' | 'app-key-lower'; keys: AppKeys }
  | { scheme: 'studio'; keys: StudioKeys };

/**
 * Signature v2: base64(HMAC-SHA256(secretKey, METHOD + " " + URI + "\n" + timestamp + "\n" + accessKey)).
 * `uri` is the path plus `?query` exactly as sent on the wire; the body is not signed.
 */
export function signatureV2(
  secretKey: string,
  method: string,
  uri: string,
  timestamp: string,
  accessKey: string,
): string {
  const message = `${method.toUpperCase()} ${uri}\n${timestamp}\n${accessKey}`;
  return createHmac('sha256', secretKey).update(message, 'utf8').digest('base64');
}

export interface SigningContext {
  method: string;
  /** Path and query exactly as sent. */
  uri: string;
  /** Epoch milliseconds of this attempt. */
  now: number;
  /** Per-request id for the text-generation service. */
  requestId: string;
}

/** The authentication headers of one attempt. Called again for every retry so the timestamp is fresh. */
export function authHeaders(credential: Credential, ctx: SigningContext): Record<string, string> {
  switch (credential.scheme) {
    case 'gateway-signature': {
      const timestamp = String(Math.trunc(ctx.now));
      const { accessKey, secretKey } = credential.keys;
      return {
        [HEADER.timestamp]: timestamp,
        [HEADER.accessKey]: accessKey,
        [HEADER.signature]: signatureV2(secretKey, ctx.method, ctx.uri, timestamp, accessKey),
      };
    }
    case 'app-key-upper':
      return {
        [UPPER_HEADER.apiKeyId]: credential.keys.clientId,
        [UPPER_HEADER.apiKey]: credential.keys.clientSecret,
      };
    case 'app-key-lower':
      return { [HEADER.apiKeyId]: credential.keys.clientId, [HEADER.apiKey]: credential.keys.clientSecret };
    case 'studio':
      return {
        [UPPER_HEADER.studioApiKey]: credential.keys.apiKey,
        [UPPER_HEADER.apiKey]: credential.keys.gatewayKey,
        [UPPER_HEADER.studioRequestId]: ctx.requestId,
      };
  }
}

/** Secrets carried by a credential, for redaction. */
export function secretsOf(credential: Credential): string[] {
  switch (credential.scheme) {
    case 'gateway-signature':
      return [credential.keys.secretKey];
    case 'app-key-upper':
    case 'app-key-lower':
      return [credential.keys.clientSecret];
    case 'studio':
      return [credential.keys.apiKey, credential.keys.gatewayKey];
  }
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/** Server side of the gateway signature (used by the sandbox): checks presence, the time window and the HMAC. */
export function verifyGatewaySignature(
  headers: Record<string, string | string[] | undefined>,
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
  if (!timingSafeEqualString(expected, signature)) return { ok: false, reason: 'signature mismatch' };
  return { ok: true };
}

export function timingSafeEqualString(a: string, b: string): boolean {
  // Compare HMACs of both so that length differences do not leak timing either.
  const key = 'compare';
  const ha = createHmac('sha256', key).update(a).digest();
  const hb = createHmac('sha256', key).update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

export function schemeLabel(scheme: AuthScheme): string {
  return {
    'gateway-signature': 'gateway signature (access key + secret key)',
    'app-key-upper': 'application key pair (client id + client secret)',
    'app-key-lower': 'application key pair (client id + client secret)',
    studio: 'text-generation keys (studio API key + gateway key)',
  }[scheme];
}
