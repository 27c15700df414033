import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets in constant time: their SHA-256 digests are compared, so that neither the position of
 * the first difference nor a difference in length shows in the time taken.
 */
export function timingSafeEqualText(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}
