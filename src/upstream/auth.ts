/** node:crypto, loaded with the first signature: a start (initialize, tools/list) does not need it. */
const nodeCrypto = () => process.getBuiltinModule('node:crypto');

/** The vendor token of every header name lives here and nowhere else. */
const VENDOR = 'svc';

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

/**
 * Headers whose values are credentials, per request or static: a signature covers method, path and time but not
 * the body, so a transcript holding one could be replayed with another body within the gateway's window. Their
 * values never appear in a result, an error, a log line or a dry run.
 */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([HEADER.signature, HEADER.apiKey, HEADER.studioApiKey]);

/** Upper-case spellings used by E3 (application key pair) and E12 (text-generation keys), as the spec writes them. */
const UPPER_HEADER = {
  apiKeyId: HEADER.apiKeyId.toUpperCase(),
  apiKey: HEADER.apiKey.toUpperCase(),
  studioApiKey: HEADER.studioApiKey.toUpperCase(),
  studioRequestId: HEADER.studioRequestId.toUpperCase(),
} as const;

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
  return nodeCrypto().createHmac('sha256', secretKey).update(message, 'utf8').digest('base64');
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
