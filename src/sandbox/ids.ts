import { createHash } from 'node:crypto';

/**
 * A UUID-shaped id derived from a seed. The sandbox stays deterministic (same requests, same answers) while
 * ids still look like the version-4 UUIDs the real services return.
 */
function uuidFrom(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A per-sandbox sequence of request ids; each service that answers with a requestId owns one. */
export function requestIds(service: string): () => string {
  let seq = 0;
  return () => uuidFrom(`${service}-${++seq}`);
}
