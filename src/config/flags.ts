import { envName } from './env-variables.js';

/** One row of FLAGS. */
export interface Flag {
  readonly type: 'boolean' | 'string';
  /** The one-letter form. */
  readonly short?: string;
  /** What a string flag's value is, as --help writes it. */
  readonly value?: string;
  /** One line, plain text, for --help; a flag without one is named on its last line only (--help, --version). */
  readonly help?: string;
  /** More for the documentation only (Markdown). */
  readonly details?: string;
  /** The value used when the flag is not given, as it would be written. */
  readonly default?: string;
  /** Given without --http, the start is refused. */
  readonly httpOnly?: true;
}

/**
 * Every command-line flag, in one table (as env-variables.ts is for the environment): the parser's options, the
 * type of the parsed flags, their defaults, the rule of the HTTP-only ones, --help's lines and the table of
 * docs/http.md (`npm run generate`) are made from it. Adding a flag is adding a row (and reading it in parse.ts).
 */
export const FLAGS = {
  http: { type: 'boolean', help: 'serve Streamable HTTP at /mcp' },
  host: {
    type: 'string',
    value: '<host>',
    help: 'HTTP bind address',
    details: `Anything but loopback (\`127.x.x.x\`, \`::1\`, \`localhost\`) requires \`${envName('SVC_MCP_AUTH_TOKEN')}\`, or the server refuses to start (exit code 2)`,
    default: '127.0.0.1',
    httpOnly: true,
  },
  port: {
    type: 'string',
    value: '<port>',
    help: 'HTTP port',
    details: '`0` picks a free port (the real one is printed)',
    default: '3000',
    httpOnly: true,
  },
  stateless: {
    type: 'boolean',
    help: 'HTTP without sessions (for replicas behind a load balancer)',
    details: 'Every request is served on its own ([below](#sessions-and---stateless))',
    httpOnly: true,
  },
  sandbox: { type: 'boolean', help: 'route every service to the embedded simulator (demo credentials)' },
  'read-only': { type: 'boolean', help: 'offer only the tools that change nothing' },
  tools: { type: 'string', value: '<a,b>', help: 'offer only these tools' },
  services: {
    type: 'string',
    value: '<a,b>',
    help: `offer only the tools of these services (ids as in ${envName('SVC_SERVICES')})`,
  },
  profile: {
    type: 'string',
    value: '<name>',
    help: `use this profile of ${envName('SVC_PROFILES_FILE')} (as ${envName('SVC_PROFILE')})`,
    details: "Not in OAuth mode, where each token's claim picks the profile ([profiles](profiles.md))",
  },
  'no-confirm': { type: 'boolean', help: 'run destructive calls (E11, E15) without asking the user first' },
  'no-app-views': {
    type: 'boolean',
    help: `declare and serve no MCP Apps view (as ${envName('SVC_APP_VIEWS')}=false)`,
  },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies Record<string, Flag>;

export type FlagName = keyof typeof FLAGS;

/** A flag as a message writes it (`--profile`): typed by the table, as envName is. */
export const flagName = <N extends FlagName>(name: N) => `--${name}` as const;

type TypeOf<N extends FlagName> = (typeof FLAGS)[N]['type'] extends 'boolean' ? boolean : string;

/** The flags of a command line: each as its row's type says, absent when not given. */
export type Flags = { [N in FlagName]?: TypeOf<N> };

/** The names of the flags that have a default. */
export type DefaultedFlagName = {
  [N in FlagName]: (typeof FLAGS)[N] extends { default: string } ? N : never;
}[FlagName];

/** node:util's parseArgs options: the type and short form of each row (no default: a flag given is told apart). */
export const PARSE_OPTIONS = Object.fromEntries(
  Object.entries(FLAGS).map(([name, flag]: [string, Flag]) => [
    name,
    flag.short ? { type: flag.type, short: flag.short } : { type: flag.type },
  ]),
) as { [N in FlagName]: { type: (typeof FLAGS)[N]['type']; short?: string } };

export const flagDefault = (name: DefaultedFlagName): string => FLAGS[name].default;

const ROWS = Object.entries(FLAGS) as [FlagName, Flag][];

/** The flags that apply only with --http, in the table's order. */
export const HTTP_ONLY_FLAGS: readonly FlagName[] = ROWS.filter(([, flag]) => flag.httpOnly).map(([name]) => name);

/** "--host, --port and --stateless only apply with --http" */
export const HTTP_ONLY_MESSAGE = `${inWords(HTTP_ONLY_FLAGS.map(flagName))} only apply with ${flagName('http')}`;

/** --help's lines of the flags, after `(no option)`: each with its value and default, then those with no line. */
export function flagsHelp(indent: string, width: number): string[] {
  const lines = ROWS.filter(([, flag]) => flag.help).map(([name, flag]) => {
    const label = flag.value ? `--${name} ${flag.value}` : `--${name}`;
    const fallback = flag.default === undefined ? '' : ` (default ${flag.default})`;
    return `${indent}${label.padEnd(width)}${flag.help}${fallback}`;
  });
  const bare = ROWS.filter(([, flag]) => !flag.help).map(([name]) => `--${name}`);
  return [...lines, `${indent}${bare.join(', ')}`];
}

function inWords(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
