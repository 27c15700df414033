/**
 * The gateway's error codes, the same for every service behind it (the spec shows none for most operations, Errors:
 * "not shown"), so that a bare number becomes something an agent can act on. Read by the platform client
 * (upstream/answer-envelope.ts) and by the sandbox, which answers with them.
 */
export const GATEWAY_ERRORS = {
  badRequest: { code: '100', meaning: 'bad request' },
  authenticationFailed: { code: '200', meaning: 'authentication failed' },
  permissionDenied: { code: '210', meaning: 'permission denied' },
  notFound: { code: '300', meaning: 'not found' },
  quotaExceeded: { code: '400', meaning: 'quota exceeded' },
  throttleLimited: { code: '410', meaning: 'throttle limited' },
  rateLimited: { code: '420', meaning: 'rate limited' },
  bodyTooLarge: { code: '430', meaning: 'request body too large' },
  endpointError: { code: '500', meaning: 'endpoint error' },
  endpointTimeout: { code: '510', meaning: 'endpoint timeout' },
  unexpected: { code: '900', meaning: 'unexpected error' },
} as const;

/** What each code means, by code. */
export const GATEWAY_ERROR_CODES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(GATEWAY_ERRORS).map(({ code, meaning }) => [code, meaning]),
);

/** Codes worth another attempt after a pause: throttle, rate limit, endpoint timeout. */
export const RETRYABLE_GATEWAY_CODES: ReadonlySet<string> = new Set(
  [GATEWAY_ERRORS.throttleLimited, GATEWAY_ERRORS.rateLimited, GATEWAY_ERRORS.endpointTimeout].map((e) => e.code),
);

/**
 * What an HTTP status says before the upstream's own words, where those may not say it: the gateway answers a
 * duplicate (E6's second response for a status code, E15's key name taken in the Region) with HTTP 409 and code 100,
 * "Bad Request Exception".
 */
export const HTTP_STATUS_LEADS: Readonly<Record<number, string>> = {
  409: 'conflict: it already exists, or clashes with its current state.',
};
