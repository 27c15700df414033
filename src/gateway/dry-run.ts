import * as z from 'zod';
import { CREDENTIAL_HEADERS } from './auth.js';
import type { OutgoingRequest } from './http.js';

/** What a dry run returns: the request exactly as it would be sent, with every credential redacted. */
export const dryRunOutput = () =>
  z
    .object({
      method: z.string(),
      url: z.string(),
      headers: z.record(z.string(), z.string()),
      body: z.unknown().optional(),
      sent: z.literal(false),
    })
    .describe('Only in a dry run: the request that would have been sent');

export function dryRunReply(request: OutgoingRequest): { json: object } {
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name, CREDENTIAL_HEADERS.has(name.toLowerCase()) ? '[redacted]' : value]),
  );
  const body = request.body === undefined ? {} : { body: JSON.parse(request.body) as unknown };
  return { json: { dryRun: { method: request.method, url: request.url, headers, ...body, sent: false } } };
}
