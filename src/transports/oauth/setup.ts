import type { Dispatcher } from 'undici';
import type { OAuthOptions } from '../../config/index.js';
import { fetchJsonWith } from './fetch-json.js';
import { resourceServer, type ResourceServer } from './resource-server.js';
import { tokenVerifier } from './verifier.js';

/**
 * OAuth mode's parts put together: the verifier fetches the issuer's metadata and keys with the process's HTTP
 * client (a dispatcher of its own when none is given: in-process tests).
 */
export function oauthResourceServer(
  options: OAuthOptions,
  deps: { now(): number; log(entry: object): void; dispatcher?: () => Promise<Dispatcher> },
): ResourceServer {
  const dispatcher = deps.dispatcher ?? ownDispatcher();
  const verify = tokenVerifier({
    issuer: options.issuer,
    audience: options.publicUrl,
    fetchJson: fetchJsonWith(dispatcher),
    deadlineMs: options.timeoutMs,
    now: deps.now,
    log: deps.log,
  });
  return resourceServer({
    issuer: options.issuer,
    publicUrl: options.publicUrl,
    verify,
    ...(options.profiles ? { profiles: options.profiles } : {}),
  });
}

function ownDispatcher(): () => Promise<Dispatcher> {
  let made: Promise<Dispatcher> | undefined;
  return () =>
    (made ??= import('undici').then((module) => {
      // undici is CommonJS: a bundle gives its exports as the default export.
      const undici = 'Agent' in module ? module : (module as unknown as { default: typeof module }).default;
      return new undici.Agent();
    }));
}
