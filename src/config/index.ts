/**
 * Configuration's face, the one way into the folder: flags and environment in, one validated Config out, and what
 * the layers above name a variable or a profile with. It imports no transport and nothing of the platform client.
 */
export { parseCommand, usage } from './parse.js';
export { ConfigError } from './values.js';
export { credentialsFrom } from './platform.js';
export { TOOL_NAMES } from './safety.js';
export { envName, type EnvName } from './env-variables.js';
export { flagName } from './flags.js';
export { loadProfiles, selectProfile, withProfile } from './profiles.js';
export type { TelemetryOptions } from './telemetry-options.js';
export type * from './types.js';
export { SETTING_WORDS } from './setting-words.js';
