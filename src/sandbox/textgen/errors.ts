import type { SandboxResponse } from '../types.js';

/**
 * `status.code` values of the simulated text-generation service (E12). The spec gives only the success sample
 * (20000, OK); the others are the sandbox's choice, shaped like it:
 *
 * | status.code | HTTP | meaning                                                                        |
 * |-------------|------|--------------------------------------------------------------------------------|
 * | 20000       | 200  | OK                                                                             |
 * | 40000       | 400  | bad request: body not a JSON object, a field missing, of the wrong type or out |
 * |             |      | of range, or a Content-Type other than application/json                        |
 * | 40100       | 401  | unauthorized: not produced here; the sandbox's HTTP server checks the studio   |
 * |             |      | keys first and answers a wrong or missing key with the gateway's 401 body      |
 * | 40400       | 404  | unknown model (only LK-D2 exists)                                              |
 * | 50000       | 500  | internal error of the simulator                                                |
 */
export const STUDIO_STATUS = {
  ok: { http: 200, code: '20000', message: 'OK' },
  badRequest: { http: 400, code: '40000', message: 'Bad Request' },
  unauthorized: { http: 401, code: '40100', message: 'Unauthorized' },
  notFound: { http: 404, code: '40400', message: 'Not Found' },
  internal: { http: 500, code: '50000', message: 'Internal Server Error' },
} as const;
export type StudioStatus = (typeof STUDIO_STATUS)[keyof typeof STUDIO_STATUS];

/** `{"status":{"code":"40000","message":"Bad Request: maxTokens must be ..."}}`. */
export function studioError(status: StudioStatus, details: string): SandboxResponse {
  return { status: status.http, json: { status: { code: status.code, message: `${status.message}: ${details}` } } };
}
