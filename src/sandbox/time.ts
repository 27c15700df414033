/** Korea Standard Time has no daylight saving, so a fixed +09:00 offset is exact. */
const KST_OFFSET_MS = 9 * 60 * 60 * 1000;

/** ISO 8601 in UTC+9, e.g. 2025-03-04T09:15:00+09:00 (or with milliseconds: 09:15:00.000+09:00). */
export function kstIso(epochMs: number, withMillis = false): string {
  const iso = new Date(epochMs + KST_OFFSET_MS).toISOString(); // shifted wall clock, labelled Z
  return `${withMillis ? iso.slice(0, 23) : iso.slice(0, 19)}+09:00`;
}
