import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';

/**
 * Who calls, as a verified OAuth access token says (OAuth mode of the HTTP transport): the subject, the client, the
 * scopes, and `key`, the caller as the per-client limits and the fair admission count it. Never the token.
 */
export interface Caller {
  subject: string;
  client?: string;
  scopes: readonly string[];
  key: string;
  /** The credential profile the token's claim picked (SVC_PROFILES_FILE), when the server has profiles. */
  profile?: string;
}

/**
 * The transport hands the caller to the server as the request's pass-through auth info (the SDK gives it to every
 * handler as `ctx.http.authInfo`, in both eras, sessions included); its `token` field stays empty.
 */
export function authInfoOf(caller: Caller, extra: Record<string, unknown> = {}): AuthInfo {
  return { token: '', clientId: caller.client ?? '', scopes: [...caller.scopes], extra: { ...extra, caller } };
}

export function callerOf(ctx: Pick<ServerContext, 'http'>): Caller | undefined {
  return ctx.http?.authInfo?.extra?.caller as Caller | undefined;
}
