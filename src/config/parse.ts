import { parseArgs } from 'node:util';
import { environmentHelp } from './env-help.js';
import { HTTP_ONLY_FLAGS, HTTP_ONLY_MESSAGE, PARSE_OPTIONS, flagName, flagsHelp, type Flags } from './flags.js';
import { envDefault, envName, envRange, type WholeNumberEnvName } from './env-variables.js';
import { ConfigError, integer, reader, type Value } from './values.js';
import { readPlatform } from './platform.js';
import { safetyOptions } from './safety.js';
import { httpOptions } from './http.js';
import { appViewsOptions } from './app-views.js';
import { withTelemetry } from './telemetry.js';
import type { Config, Env } from './types.js';

/** --help, made when asked for: the flags (flags.ts), then the environment. */
export const usage = () =>
  [
    'Usage: svc-platform-mcp [options]',
    '',
    `  ${'(no option)'.padEnd(FLAG_COLUMN)}serve MCP over stdio`,
    ...flagsHelp('  ', FLAG_COLUMN),
    '',
    environmentHelp(),
  ].join('\n');

/** Where --help's text of each flag begins. */
const FLAG_COLUMN = 23;

export type ParsedCommand = { kind: 'help' } | { kind: 'version' } | { kind: 'serve'; config: Config };

/** Flags and environment -> one validated Config. Pure: the caller passes argv and env. */
export function parseCommand(argv: readonly string[], env: Env): ParsedCommand {
  // No flags, as a host most often starts the server: nothing to parse. node:util loads its parser on first use, a
  // cost to such a start (BENCHMARKS.md); no option has a default, so the parser would give an empty object too.
  if (argv.length === 0) return { kind: 'serve', config: buildConfig({}, env) };
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: PARSE_OPTIONS,
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}\n\n${usage()}`);
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  if (!values.http && HTTP_ONLY_FLAGS.some((name) => values[name])) throw new ConfigError(HTTP_ONLY_MESSAGE);
  return { kind: 'serve', config: buildConfig(values, env) };
}

function buildConfig(flags: Flags, env: Env): Config {
  // Typed by the table: a variable read here is one that --help, the README and the manifest know.
  const { value, secrets } = reader(env);
  const { serviceUrls, credentials, streamingRegion } = readPlatform(value);
  const wholeNumber = (name: WholeNumberEnvName) => integer(value(name) ?? envDefault(name), name, ...envRange(name));
  const timeoutMs = wholeNumber('SVC_TIMEOUT_MS');

  const http = httpOptions(flags, value, wholeNumber);

  return {
    transport: flags.http ? 'http' : 'stdio',
    safety: safetyOptions(flags, value, env),
    limits: {
      maxConcurrentCalls: wholeNumber('SVC_MAX_CONCURRENT_CALLS'),
      maxQueuedCalls: wholeNumber('SVC_MAX_QUEUED_CALLS'),
      maxResponseBytes: wholeNumber('SVC_MAX_RESPONSE_BYTES'),
      maxResultBytes: wholeNumber('SVC_MAX_RESULT_BYTES'),
      workflowTimeoutMs: wholeNumber('SVC_WORKFLOW_TIMEOUT_MS'),
    },
    http,
    sandbox: Boolean(flags.sandbox),
    serviceUrls,
    credentials,
    streamingRegion,
    timeoutMs,
    ...profileChoice(flags, value, http.oauth !== undefined),
    shutdownGraceMs: wholeNumber('SVC_MCP_SHUTDOWN_GRACE_MS'),
    proxy: {
      http: value('HTTP_PROXY') ?? value('http_proxy'),
      https: value('HTTPS_PROXY') ?? value('https_proxy'),
      noProxy: value('NO_PROXY') ?? value('no_proxy'),
    },
    appViews: appViewsOptions(flags, value),
    ...withTelemetry(value, secrets),
    // Last: every variable has been read by now.
    secrets: [...secrets],
  };
}

/**
 * Where the credential profiles are and which one this process uses; the file is read at start (main.ts, with
 * profiles.ts). In OAuth mode each token's claim picks the profile, so a process-wide choice would be ignored.
 */
function profileChoice(flags: Flags, value: Value, oauth: boolean): Pick<Config, 'profilesFile' | 'profile'> {
  const file = envName('SVC_PROFILES_FILE');
  const profilesFile = value(file);
  const profile = flags.profile?.trim() || value('SVC_PROFILE');
  const source = flags.profile !== undefined ? flagName('profile') : envName('SVC_PROFILE');
  if (profile !== undefined && profilesFile === undefined)
    throw new ConfigError(`${source} names a profile, but ${file} is not set`);
  if (profile !== undefined && oauth)
    throw new ConfigError(
      `${source} is not used in OAuth mode: each token's claim picks its profile (docs/profiles.md)`,
    );
  return { ...(profilesFile ? { profilesFile } : {}), ...(profile ? { profile } : {}) };
}
