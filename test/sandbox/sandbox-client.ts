import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';

/**
 * Talks to the sandbox over real HTTP. The signature is computed here with node:crypto, not with
 * src/upstream/auth.ts, so that the sandbox's check is tested against an independent implementation.
 */

type Auth = 'signature' | 'app-key' | 'studio' | 'none';

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is (overrides body). */
  rawBody?: string;
  contentType?: string;
  auth?: Auth;
  /** Epoch ms written into the timestamp header (default: now). */
  timestamp?: number;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export function signatureHeaders(
  sb: Sandbox,
  method: string,
  uri: string,
  timestamp = Date.now(),
): Record<string, string> {
  const ts = String(timestamp);
  const message = `${method} ${uri}\n${ts}\n${sb.credentials.accessKey}`;
  return {
    'x-svc-apigw-timestamp': ts,
    'x-svc-iam-access-key': sb.credentials.accessKey,
    'x-svc-apigw-signature-v2': createHmac('sha256', sb.credentials.secretKey).update(message).digest('base64'),
  };
}

function authHeaders(sb: Sandbox, auth: Auth, method: string, uri: string, timestamp?: number): Record<string, string> {
  switch (auth) {
    case 'signature':
      return signatureHeaders(sb, method, uri, timestamp);
    case 'app-key':
      return { 'X-SVC-APIGW-API-KEY-ID': sb.credentials.clientId, 'X-SVC-APIGW-API-KEY': sb.credentials.clientSecret };
    case 'studio':
      return {
        'X-SVC-STUDIO-API-KEY': sb.credentials.studioApiKey,
        'X-SVC-APIGW-API-KEY': sb.credentials.studioGatewayKey,
      };
    case 'none':
      return {};
  }
}

export async function call(sb: Sandbox, method: string, uri: string, options: CallOptions = {}): Promise<CallResult> {
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = {
    ...authHeaders(sb, options.auth ?? 'signature', method, uri, options.timestamp),
    ...(body === undefined ? {} : { 'content-type': options.contentType ?? 'application/json' }),
    ...options.headers,
  };
  const res = await fetch(sb.url + uri, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Sends the path exactly as given (fetch would normalise dot segments and re-encode). */
export function rawCall(sb: Sandbox, method: string, path: string): Promise<{ status: number; json: unknown }> {
  const url = new URL(sb.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: signatureHeaders(sb, method, path) },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as unknown }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The gateway error body, for expectations. */
export const gatewayErrorBody = (errorCode: string) => ({
  error: { errorCode, message: expect.any(String), details: expect.any(String) },
});
