import { GATEWAY_ERRORS } from '../catalogue/gateway-errors.js';
import { gatewayError, type SandboxResponse } from './types.js';

/**
 * The gateway's error answers, one place for the code/message pairs so every service says the same thing. The codes
 * are the catalogue's (GATEWAY_ERRORS); the messages and HTTP statuses are the sandbox's.
 */
const {
  badRequest: BAD,
  authenticationFailed,
  permissionDenied,
  notFound: NOT_FOUND,
  rateLimited,
  bodyTooLarge,
} = GATEWAY_ERRORS;
const { endpointError, endpointTimeout, unexpected: UNEXPECTED } = GATEWAY_ERRORS;

export const badRequest = (details: string): SandboxResponse =>
  gatewayError(400, BAD.code, 'Bad Request Exception', details);

export const conflict = (details: string): SandboxResponse =>
  gatewayError(409, BAD.code, 'Bad Request Exception', details);

export const notFound = (details: string): SandboxResponse =>
  gatewayError(404, NOT_FOUND.code, 'Not Found Exception', details);

export const authFailed = (details: string): SandboxResponse =>
  gatewayError(401, authenticationFailed.code, 'Authentication Failed', details);

export const methodNotAllowed = (details: string): SandboxResponse =>
  gatewayError(405, BAD.code, 'Method Not Allowed', details);

export const payloadTooLarge = (details: string): SandboxResponse =>
  gatewayError(413, bodyTooLarge.code, 'Request Entity Too Large', details);

export const unexpected = (details: string): SandboxResponse =>
  gatewayError(500, UNEXPECTED.code, 'Unexpected Error', details);

/** The gateway error a bare HTTP status stands for (used by status-only faults). */
export function errorForStatus(status: number): SandboxResponse {
  const table: Record<number, [string, string]> = {
    400: [BAD.code, 'Bad Request Exception'],
    401: [authenticationFailed.code, 'Authentication Failed'],
    403: [permissionDenied.code, 'Permission Denied'],
    404: [NOT_FOUND.code, 'Not Found Exception'],
    413: [bodyTooLarge.code, 'Request Entity Too Large'],
    429: [rateLimited.code, 'Rate Limit Exceeded'],
    504: [endpointTimeout.code, 'Endpoint Timeout'],
  };
  const [code, message] =
    table[status] ?? (status >= 500 ? [endpointError.code, 'Endpoint Error'] : [UNEXPECTED.code, 'Unexpected Error']);
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
