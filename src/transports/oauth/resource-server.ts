import type { IncomingHttpHeaders } from 'node:http';
import type { Caller } from '../../mcp/caller.js';
import { SCOPES_SUPPORTED } from '../../mcp/scopes.js';
import { subjectKey } from '../http-clients.js';
import { KeysUnavailable, RETRY_AFTER_FAILURE_MS } from './jwks.js';
import { TokenError } from './jwt.js';
import type { TokenVerifier } from './verifier.js';
import { selectProfile, type Profiles } from '../../config/index.js';

/**
 * The HTTP face of OAuth mode (RFC 9728, RFC 6750): the Protected Resource Metadata, who a request's token says
 * it comes from, and the challenges of a refusal. The token itself never leaves this module: what goes on is
 * the subject, the client and the scopes.
 */

export interface ResourceServer {
  /** The paths the metadata is served at: the path-inserted form of SVC_MCP_PUBLIC_URL's path, and the bare one. */
  metadataPaths: ReadonlySet<string>;
  metadataUrl: string;
  metadata: object;
  authenticate(url: string | undefined, headers: IncomingHttpHeaders): Promise<Authentication>;
  /** The 403 challenge of a call that needs more scopes than the token has. */
  insufficientScope(scopes: readonly string[]): Refusal;
}

type Authentication = { ok: true; caller: Caller } | ({ ok: false } & Refusal);

interface Refusal {
  status: number;
  /** A short stable word for the request log. */
  reason: string;
  message: string;
  headers: Record<string, string>;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** `/.well-known/oauth-protected-resource/mcp` for `https://mcp.example.com/mcp` (RFC 9728 3.1). */
function metadataUrlOf(publicUrl: string): string {
  const url = new URL(publicUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return new URL(`${WELL_KNOWN}${path}`, url.origin).href;
}

export function resourceServer(options: {
  issuer: string;
  publicUrl: string;
  verify: TokenVerifier;
  /** Credential profiles: the token's claim picks one, and a token that picks none is refused (403). */
  profiles?: Profiles;
}): ResourceServer {
  const metadataUrl = metadataUrlOf(options.publicUrl);
  const metadata = {
    resource: options.publicUrl,
    authorization_servers: [options.issuer],
    scopes_supported: SCOPES_SUPPORTED,
    bearer_methods_supported: ['header'],
    resource_name: 'svc-platform-mcp',
  };
  const challenge = (params: Record<string, string>) =>
    `Bearer ${Object.entries({ ...params, resource_metadata: metadataUrl })
      .map(([name, value]) => `${name}="${value.replace(/["\\]/g, '')}"`)
      .join(', ')}`;
  const unauthorized = (reason: string, message: string, params: Record<string, string> = {}): Refusal => ({
    status: 401,
    reason,
    message,
    headers: { 'WWW-Authenticate': challenge(params) },
  });

  return {
    metadataPaths: new Set([new URL(metadataUrl).pathname, WELL_KNOWN]),
    metadataUrl,
    metadata,
    async authenticate(url, headers) {
      // RFC 6750 2.3 and the MCP specification: never in the URL, where logs and histories keep it.
      if (url !== undefined && /[?&]access_token=/.test(url)) {
        return {
          ok: false,
          ...unauthorized('auth_query', 'Unauthorized: send the token in the Authorization header, not the URL', {
            error: 'invalid_request',
            error_description: 'tokens are accepted only in the Authorization header',
          }),
        };
      }
      const token = bearerToken(headers.authorization);
      if (token === undefined && headers.authorization !== undefined) {
        const why = 'the Authorization header is not Bearer <token>';
        return {
          ok: false,
          ...unauthorized('auth', `Unauthorized: ${why}`, { error: 'invalid_token', error_description: why }),
        };
      }
      if (token === undefined) {
        return {
          ok: false,
          ...unauthorized('auth', `Unauthorized: send Authorization: Bearer <an access token from ${options.issuer}>`),
        };
      }
      try {
        const { claims: all, ...claims } = await options.verify(token);
        const profiles = options.profiles;
        const profile = profiles && selectProfile(profiles, all);
        if (profiles && profile === undefined) return { ok: false, ...noProfile(profiles) };
        const caller: Caller = { ...claims, key: subjectKey(claims.subject), ...(profile ? { profile } : {}) };
        return { ok: true, caller };
      } catch (error) {
        if (error instanceof KeysUnavailable) {
          // The log line of why was written when the fetch failed (once); this says what the client needs.
          return {
            ok: false,
            status: 503,
            reason: error.timedOut ? 'auth_timeout' : 'auth_unavailable',
            message: error.timedOut
              ? 'Service Unavailable: the authorization server did not answer in time to check the token; retry later'
              : 'Service Unavailable: the authorization server cannot be reached to check the token; retry later',
            headers: { 'Retry-After': String(RETRY_AFTER_FAILURE_MS / 1000) },
          };
        }
        const why = error instanceof TokenError ? error.message : 'the token cannot be read';
        return {
          ok: false,
          ...unauthorized('auth', `Unauthorized: ${why}`, { error: 'invalid_token', error_description: why }),
        };
      }
    },
    insufficientScope(scopes) {
      const needed = scopes.join(' ');
      return {
        status: 403,
        reason: 'scope',
        message: `Forbidden: this needs the scope ${needed}, which the token does not have`,
        headers: {
          'WWW-Authenticate': challenge({
            error: 'insufficient_scope',
            scope: needed,
            error_description: `this needs ${needed}`,
          }),
        },
      };
    },
  };
}

/**
 * A valid token whose claim picks no credential profile, and no default: refused rather than served with keys that
 * are not its team's. The reason names the claim, never its values (they may say more than the operator needs).
 */
function noProfile(profiles: Profiles): Refusal {
  const claim = profiles.select?.claim ?? '(none configured)';
  const why = `the token's ${claim} claim matches no rule of the credential profiles and there is no default profile`;
  return {
    status: 403,
    reason: 'no_profile',
    message: `Forbidden: ${why}; ask the operator to add a rule for your group (docs/profiles.md)`,
    // No challenge: no other token of this user's, nor more scopes, would be served otherwise.
    headers: {},
  };
}

/** The token of `Authorization: Bearer <token>` (the scheme in any case, RFC 7235); undefined when there is none. */
function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header ?? '');
  return match?.[1];
}
