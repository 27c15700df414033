import type { IncomingHttpHeaders } from 'node:http';
import type { AuthScheme } from '../catalogue/types.js';

/** What a sandbox route handler receives. */
export interface SandboxRequest {
  method: string;
  /** Path and query exactly as received (what the signature covers). */
  rawUri: string;
  /** Decoded path parameters named by the route pattern (`:jobId` -> params.jobId). */
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed body: JSON object, or form fields for application/x-www-form-urlencoded; undefined when empty. */
  body: unknown;
}

/** What a sandbox route handler answers. `json` is serialised; `text` is sent as is with `contentType`. */
export interface SandboxResponse {
  status: number;
  json?: unknown;
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface SandboxContext {
  /** Epoch milliseconds; injectable so tests control time. */
  now(): number;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path pattern with `:name` segments, e.g. `/api/v1/jobs/:jobId/executions`. */
  pattern: string;
  auth: AuthScheme;
  handle(req: SandboxRequest, ctx: SandboxContext): SandboxResponse | Promise<SandboxResponse>;
}

/** The sandbox's own demo credentials (not secrets of any real account). */
export interface SandboxCredentials {
  accessKey: string;
  secretKey: string;
  clientId: string;
  clientSecret: string;
  studioApiKey: string;
  studioGatewayKey: string;
}

/** Gateway error body: `{"error":{"errorCode","message","details"}}`. */
export function gatewayError(status: number, errorCode: string, message: string, details = ''): SandboxResponse {
  return { status, json: { error: { errorCode, message, details } } };
}
