// Stands in for 'undici' in the bundle (see scripts/build-plugins.mjs): the same names the server imports, but undici
// itself, with node:http, node:http2 and node:tls under it, is loaded on the first upstream call instead of at
// start-up. tools/list and initialize never need it. Only the bundle uses this file; tests run against undici.
let core;
let loading;
const load = () => (loading ??= import('./undici-core.mjs').then((m) => (core = m)));

const REAL = Symbol('undici dispatcher');

/** A dispatcher whose undici counterpart is created, with the same options, when the first request needs it. */
class LazyDispatcher {
  #kind;
  #options;
  #real;
  constructor(kind, options) {
    this.#kind = kind;
    this.#options = options;
  }
  get [REAL]() {
    if (!core) throw new Error('undici is not loaded yet: use request() from this module');
    return (this.#real ??= new core[this.#kind](this.#options));
  }
  dispatch(options, handler) {
    return this[REAL].dispatch(options, handler);
  }
  close(callback) {
    if (this.#real) return this.#real.close(callback);
    if (callback) return void process.nextTick(callback, null, null);
    return Promise.resolve();
  }
  destroy(error, callback) {
    if (this.#real) return this.#real.destroy(error, callback);
    if (typeof error === 'function') [callback, error] = [error, null];
    if (callback) return void process.nextTick(callback, null, null);
    return Promise.resolve();
  }
}

export class Agent extends LazyDispatcher {
  constructor(options) {
    super('Agent', options);
  }
}

export class EnvHttpProxyAgent extends LazyDispatcher {
  constructor(options) {
    super('EnvHttpProxyAgent', options);
  }
}

/** undici's request(url, options): loads undici, then passes the real dispatcher on. */
export async function request(url, options) {
  await load();
  const dispatcher = options?.dispatcher;
  if (dispatcher && REAL in dispatcher) options = { ...options, dispatcher: dispatcher[REAL] };
  return core.request(url, options);
}

/** undici's error classes. Only read after a request failed, when undici is loaded. */
export const errors = new Proxy(
  {},
  {
    get(_, name) {
      if (!core) throw new Error(`undici.errors.${String(name)} read before undici was loaded`);
      return core.errors[name];
    },
  },
);

// Load it in the idle time after start-up: hosts send initialize and tools/list at once, and the first tool call
// only after the model has thought about it. Not while a V8 start-up snapshot is being built (bench only).
if (!process.execArgv.includes('--build-snapshot')) setTimeout(() => void load(), 300).unref();
