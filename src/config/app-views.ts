import { envDefault, envName } from './env-variables.js';
import type { Flags } from './flags.js';
import { ConfigError, boolean, checkedUrl, type Value } from './values.js';
import type { AppViewsOptions, TileServer } from './types.js';

/** The flag wins over its variable, as for the safety flags. */
export function appViewsOptions(flags: Flags, value: Value): AppViewsOptions {
  const enabled = flags['no-app-views']
    ? false
    : boolean(value('SVC_APP_VIEWS') ?? envDefault('SVC_APP_VIEWS'), 'SVC_APP_VIEWS');
  const template = value('SVC_MAP_TILES_URL');
  return { enabled, ...(template === undefined ? {} : { tiles: tileServer(template) }) };
}

/** A tile URL: http(s), no user info (a secret there would reach every browser), and each of {z}, {x} and {y}. */
function tileServer(template: string): TileServer {
  const name = envName('SVC_MAP_TILES_URL');
  const url = checkedUrl(name, template, {
    notHttp: 'must be http(s)',
    withUserInfo: 'must have no user info (value not shown)',
  });
  const missing = ['{z}', '{x}', '{y}'].filter((part) => !template.includes(part));
  if (missing.length > 0) throw new ConfigError(`${name} must contain ${missing.join(', ')}`);
  return { template, origin: url.origin };
}
