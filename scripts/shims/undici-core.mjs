// The part of undici the server uses, loaded by undici-lazy.mjs on the first upstream call (its own chunk).
// undici's index.js would also load fetch, WebSocket, caches, cookies, mocks and the interceptors, with
// node:zlib, node:worker_threads, node:dns and Node's own copy of undici: about 40 ms of start-up on our machine.
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import errors from 'undici/lib/core/errors.js';
import util from 'undici/lib/core/util.js';
import api from 'undici/lib/api/index.js';
import globalDispatcher from 'undici/lib/global.js';

// As undici's index.js does: every dispatcher gets request(), stream(), pipeline(), upgrade(), connect().
Object.assign(Dispatcher.prototype, api);

export { Agent, EnvHttpProxyAgent, errors };

/** undici's top-level request(url, options), as index.js builds it (makeDispatcher(api.request)). */
export function request(url, opts, handler) {
  if (typeof opts === 'function') {
    handler = opts;
    opts = null;
  }
  if (!url || (typeof url !== 'string' && typeof url !== 'object' && !(url instanceof URL))) {
    throw new errors.InvalidArgumentError('invalid url');
  }
  if (opts != null && typeof opts !== 'object') throw new errors.InvalidArgumentError('invalid opts');
  if (opts && opts.path != null) {
    if (typeof opts.path !== 'string') throw new errors.InvalidArgumentError('invalid opts.path');
    const path = opts.path.startsWith('/') ? opts.path : `/${opts.path}`;
    url = new URL(util.parseOrigin(url).origin + path);
  } else {
    if (!opts) opts = typeof url === 'object' ? url : {};
    url = util.parseURL(url);
  }
  const { agent, dispatcher = globalDispatcher.getGlobalDispatcher() } = opts;
  if (agent) throw new errors.InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
  return api.request.call(
    dispatcher,
    {
      ...opts,
      origin: url.origin,
      path: url.search ? `${url.pathname}${url.search}` : url.pathname,
      method: opts.method || (opts.body ? 'PUT' : 'GET'),
    },
    handler,
  );
}
