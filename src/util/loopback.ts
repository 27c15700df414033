/** The host names that always mean this machine. The sandbox and local test servers live there. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '::1'] as const;

/** localhost, any 127.x.x.x address, or ::1 (bracketed or not). */
export function isLoopback(host: string): boolean {
  const name = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return name === 'localhost' || name === '::1' || /^127(?:\.\d{1,3}){3}$/.test(name);
}
