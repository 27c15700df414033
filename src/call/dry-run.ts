import * as z from 'zod';
import { NOTHING_SENT } from '../failures.js';
import { CREDENTIAL_HEADERS, HEADER, type OutgoingRequest } from '../upstream/index.js';

/** What a dry run returns: the request exactly as it would be sent, with every credential redacted. */
export const dryRunOutput = () =>
  z
    .object({
      method: z.string(),
      url: z.string(),
      headers: z.record(z.string(), z.string()),
      body: z.unknown().optional(),
      sent: z.literal(false),
      note: z.string().describe('What was redacted, and what a real send does differently'),
    })
    .describe('Only in a dry run: the request that would have been sent');

export function dryRunReply(request: OutgoingRequest): { json: object } {
  const redacted: string[] = [];
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => {
      if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) return [name, value];
      redacted.push(name.toLowerCase());
      return [name, '[redacted]'];
    }),
  );
  const body = request.body === undefined ? {} : { body: JSON.parse(request.body) as unknown };
  return {
    json: {
      dryRun: { method: request.method, url: request.url, headers, ...body, sent: false, note: noteOn(redacted) },
    },
  };
}

/**
 * The shown signature could not be replayed anyway: it is computed anew, over a new timestamp, for every attempt of a
 * real send (`exchange`, `upstream/index.ts`). Keys other than the signature are secrets; the access key and key ids
 * are not, and show.
 */
function noteOn(redacted: readonly string[]): string {
  const keys = redacted.filter((name) => name !== HEADER.signature);
  return [
    NOTHING_SENT,
    'Nothing upstream was checked either: not whether the target exists, nor whether the call would succeed.',
    redacted.includes(HEADER.signature)
      ? `The signature (${HEADER.signature}) is redacted: a real send signs again, with a fresh timestamp ` +
        `(${HEADER.timestamp}), on each attempt.`
      : '',
    keys.length > 0 ? `Secret keys redacted: ${keys.join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}
