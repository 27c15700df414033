/** The flag table (src/config/flags.ts): what parseCommand accepts, refuses and defaults to, and --help's lines. */
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseCommand, usage } from '../src/config/index.js';
import { FLAGS, HTTP_ONLY_FLAGS, PARSE_OPTIONS, type Flag, type FlagName } from '../src/config/flags.js';

const ROWS = Object.entries(FLAGS) as [FlagName, Flag][];
/** A value each string flag accepts. */
const VALUES: Partial<Record<FlagName, string>> = {
  host: 'localhost',
  port: '0',
  tools: 'kms_migrate_key',
  services: 'kms',
  profile: 'team-a',
};
/** The environment a flag needs beside it (--profile picks from a profiles file; parsing does not read it). */
const ENV: Partial<Record<FlagName, Record<string, string>>> = { profile: { SVC_PROFILES_FILE: '/etc/profiles.json' } };
/** A command line that gives the flag (with a value it accepts), with --http when it needs it. */
const given = (name: FlagName, flag: Flag) => [
  ...(flag.httpOnly ? ['--http'] : []),
  `--${name}`,
  ...(flag.type === 'string' ? [VALUES[name]!] : []),
];

describe('the table of flags', () => {
  it('gives the parser every flag, with its short form', () => {
    for (const [name, flag] of ROWS) expect(() => parseCommand(given(name, flag), ENV[name] ?? {}), name).not.toThrow();
    expect(parseCommand(['-h'], {})).toEqual({ kind: 'help' });
    expect(parseCommand(['-v'], {})).toEqual({ kind: 'version' });
    expect(() => parseCommand(['--verbose'], {})).toThrow(/Unknown option '--verbose'[\s\S]*Usage: svc-platform-mcp/);
  });

  it('refuses each flag it marks HTTP-only without --http, in words made from the table', () => {
    expect(HTTP_ONLY_FLAGS).toEqual(['host', 'port', 'stateless']);
    for (const name of HTTP_ONLY_FLAGS) {
      const argv = given(name, FLAGS[name]).filter((arg) => arg !== '--http');
      expect(() => parseCommand(argv, {}), name).toThrow(ConfigError);
      expect(() => parseCommand(argv, {}), name).toThrow(/^--host, --port and --stateless only apply with --http$/);
    }
  });

  it('takes its defaults when a flag is not given', () => {
    const command = parseCommand(['--http'], {});
    if (command.kind !== 'serve') throw new Error(command.kind);
    expect(command.config.http.host).toBe(FLAGS.host.default);
    expect(String(command.config.http.port)).toBe(FLAGS.port.default);
  });

  it('serves with no flags as the parser would: it gives nothing for an empty command line', () => {
    // parseCommand skips node:util's parser when there is nothing to parse; it would give no value either.
    expect(parseArgs({ args: [], options: PARSE_OPTIONS, strict: true, allowPositionals: false }).values).toEqual({});
    const env = { SVC_TIMEOUT_MS: '1234', SVC_PROFILES_FILE: '/etc/profiles.json', SVC_PROFILE: 'team-a' };
    const command = parseCommand([], env);
    if (command.kind !== 'serve') throw new Error(command.kind);
    expect(command.config).toMatchObject({ transport: 'stdio', sandbox: false, timeoutMs: 1234, profile: 'team-a' });
    expect(command).toEqual(parseCommand(['--profile', 'team-a'], env));
  });

  it('lists every flag in --help, with its value, help and default', () => {
    const text = usage();
    for (const [name, flag] of ROWS) {
      if (!flag.help) expect(text).toMatch(new RegExp(`^  .*--${name}\\b`, 'm'));
      else {
        const label = `--${name}${flag.value ? ` ${flag.value}` : ''}`;
        const fallback = flag.default ? ` (default ${flag.default})` : '';
        expect(text, name).toContain(`  ${label.padEnd(23)}${flag.help}${fallback}\n`);
      }
    }
  });
});
