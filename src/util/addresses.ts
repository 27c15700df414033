import { isIP } from 'node:net';

/** `10.0.0.5`, `10.0.0.0/8`, `::1`, `fd00::/8`; undefined for anything else. */
export function parseAddressOrBlock(
  text: string,
): { address: string; family: 'ipv4' | 'ipv6'; prefix?: number } | undefined {
  const [raw = '', prefixText, ...rest] = text.trim().split('/');
  if (rest.length > 0) return undefined;
  const address = unmapped(raw);
  const version = isIP(address);
  if (version === 0) return undefined;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, family };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > (version === 4 ? 32 : 128)) return undefined;
  return { address, family, prefix: Number(prefixText) };
}

/** `::ffff:10.0.0.5` (an IPv4 client of a dual-stack socket) is 10.0.0.5; a zone index is dropped. */
export function unmapped(address: string): string {
  const lower = address.trim().toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  return mapped ? mapped[1]! : lower;
}
