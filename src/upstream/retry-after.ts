/**
 * Retry-After (RFC 9110, 10.2.3): delay-seconds or an HTTP-date. Anything else is ignored (undefined: the exchange's
 * own backoff applies), so that a value like `-5` or `soon` never reads as a date in the past and a retry at once.
 * A decimal number of seconds (`1.5`) is not valid HTTP, but its meaning is plain, and both ignoring it and reading
 * it as a date would retry sooner than the upstream asked: it is read as seconds.
 */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = httpDate(value, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** IMF-fixdate, the form senders use: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
/** The obsolete forms a recipient must still read: `Sunday, 06-Nov-94 08:49:37 GMT` and `Sun Nov  6 08:49:37 1994`. */
const RFC_850 = new RegExp(
  `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`,
);
const ASCTIME = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ( ?\\d{1,2}) ${TIME} (\\d{4})$`);

/** An HTTP-date as epoch milliseconds, or undefined when the text is not one (or names no real day or time). */
function httpDate(text: string, now: number): number | undefined {
  let m: RegExpExecArray | null;
  let fields: { day: string; month: string; year: number; time: string[] } | undefined;
  if ((m = IMF_FIXDATE.exec(text))) fields = { day: m[1]!, month: m[2]!, year: Number(m[3]), time: m.slice(4, 7) };
  else if ((m = RFC_850.exec(text)))
    fields = { day: m[1]!, month: m[2]!, year: twoDigitYear(Number(m[3]), now), time: m.slice(4, 7) };
  else if ((m = ASCTIME.exec(text))) fields = { day: m[2]!, month: m[1]!, year: Number(m[6]), time: m.slice(3, 6) };
  if (!fields) return undefined;
  const day = Number(fields.day);
  const month = MONTHS.indexOf(fields.month);
  const [hour, minute, second] = fields.time.map(Number) as [number, number, number];
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const time = Date.UTC(fields.year, month, day, hour, minute, second);
  return new Date(time).getUTCMonth() === month ? time : undefined; // 31 Feb rolls over into March
}

/** RFC 9110: a two-digit year more than 50 years in the future is the most recent past year with those digits. */
function twoDigitYear(digits: number, now: number): number {
  const thisYear = new Date(now).getUTCFullYear();
  const year = Math.floor(thisYear / 100) * 100 + digits;
  return year > thisYear + 50 ? year - 100 : year;
}
