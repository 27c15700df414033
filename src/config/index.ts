/**
 * Configuration's face: flags and environment in, one validated Config out. It imports no transport and nothing of
 * the platform client; the tables (env-variables.ts, flags.ts) and the credential profiles (profiles.ts, loaded on
 * demand) are imported from their own files.
 */
export { parseCommand, usage, type ParsedCommand } from './parse.js';
export { ConfigError } from './values.js';
export { credentialsFrom } from './platform.js';
export { TOOL_NAMES } from './safety.js';
export type * from './types.js';
export { SETTING_WORDS } from './setting-words.js';
