import type { IncomingHttpHeaders } from 'node:http';
import type { AuthScheme } from '../catalogue/types.js';
import { HEADER } from '../upstream/index.js';
import { timingSafeEqualText } from '../util/timing-safe.js';
import { verifyGatewaySignature, type VerifyResult } from './signature-check.js';
import type { SandboxCredentials } from './types.js';

/**
 * The gateway's credential check, run before any handler. Reasons name the header or the rule that failed and
 * never repeat a received or expected secret, because they travel back in the 401 body and into logs.
 */
export function checkAuth(
  scheme: AuthScheme,
  headers: IncomingHttpHeaders,
  method: string,
  rawUri: string,
  credentials: SandboxCredentials,
  now: number,
): VerifyResult {
  switch (scheme) {
    case 'gateway-signature':
      return verifyGatewaySignature(
        headers,
        method,
        rawUri,
        { accessKey: credentials.accessKey, secretKey: credentials.secretKey },
        now,
      );
    // Node lower-cases incoming header names, so the upper- and lower-case spellings arrive alike.
    case 'app-key-upper':
    case 'app-key-lower':
      return checkPair(headers, [
        [HEADER.apiKeyId, credentials.clientId, 'client id'],
        [HEADER.apiKey, credentials.clientSecret, 'client secret'],
      ]);
    case 'studio':
      return checkPair(headers, [
        [HEADER.studioApiKey, credentials.studioApiKey, 'studio API key'],
        [HEADER.apiKey, credentials.studioGatewayKey, 'gateway API key'],
      ]);
  }
}

type Expectation = [header: string, expected: string, label: string];

function checkPair(headers: IncomingHttpHeaders, expectations: Expectation[]): VerifyResult {
  for (const [header] of expectations) {
    if (!single(headers[header])) return { ok: false, reason: `missing ${header} header` };
  }
  for (const [header, expected, label] of expectations) {
    if (!timingSafeEqualText(single(headers[header]) ?? '', expected)) return { ok: false, reason: `invalid ${label}` };
  }
  return { ok: true };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
