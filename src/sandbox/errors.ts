import { gatewayError, type SandboxResponse } from './types.js';

/**
 * The gateway's error answers, one place for the code/message pairs so every service says the same thing.
 * Codes follow DESIGN.md: 100 bad request, 200 authentication failed, 300 not found, 420 rate limit,
 * 430 body too large, 500/510 endpoint error/timeout, 900 unexpected.
 */
export const badRequest = (details: string): SandboxResponse =>
  gatewayError(400, '100', 'Bad Request Exception', details);

export const conflict = (details: string): SandboxResponse => gatewayError(409, '100', 'Bad Request Exception', details);

export const notFound = (details: string): SandboxResponse => gatewayError(404, '300', 'Not Found Exception', details);

export const authFailed = (details: string): SandboxResponse =>
  gatewayError(401, '200', 'Authentication Failed', details);

export const methodNotAllowed = (details: string): SandboxResponse =>
  gatewayError(405, '100', 'Method Not Allowed', details);

export const payloadTooLarge = (details: string): SandboxResponse =>
  gatewayError(413, '430', 'Request Entity Too Large', details);

export const unexpected = (details: string): SandboxResponse => gatewayError(500, '900', 'Unexpected Error', details);

/** The gateway error a bare HTTP status stands for (used by status-only faults). */
export function errorForStatus(status: number): SandboxResponse {
  const table: Record<number, [string, string]> = {
    400: ['100', 'Bad Request Exception'],
    401: ['200', 'Authentication Failed'],
    403: ['210', 'Permission Denied'],
    404: ['300', 'Not Found Exception'],
    413: ['430', 'Request Entity Too Large'],
    429: ['420', 'Rate Limit Exceeded'],
    504: ['510', 'Endpoint Timeout'],
  };
  const [code, message] = table[status] ?? (status >= 500 ? ['500', 'Endpoint Error'] : ['900', 'Unexpected Error']);
  return gatewayError(status, code, message, 'injected by a sandbox fault');
}

/**
 * Thrown by handlers (and validators) to answer with a ready response; the server catches it.
 * Lets a validator deep in a handler stop the request without threading result types through every call.
 */
export class HttpProblem extends Error {
  constructor(readonly response: SandboxResponse) {
    super(`sandbox answered ${response.status}`);
    this.name = 'HttpProblem';
  }
}

/** Declared as a function (not an arrow) so TypeScript treats calls as never-returning and narrows after them. */
export function fail(response: SandboxResponse): never {
  throw new HttpProblem(response);
}
