/**
 * The sealed state of a 2026-07-28 confirmation: valid for five minutes, on any server that shares
 * SVC_MCP_STATE_KEY, and on no other. In process, through the SDK's per-request handler, with a fake clock.
 */
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseCommand } from '../../src/config/index.js';
import { upstreamOf } from '../../src/upstream/http.js';
import { createServerFactory } from '../../src/server.js';
import { loadProfiles } from '../../src/config/profiles.js';
import { ORIGIN, callDelete, deletingUpstream } from '../helpers/confirm-delete.js';

const KEY = 'state-key-for-tests-0123456789abcdef';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};
const ACCEPT = { confirmation: { action: 'accept', content: { serviceId: 'rcs-home-feed' } } };

let agent: MockAgent;
/** Deletions that reached the upstream. */
let deleted: () => number;

/** Two credential profiles of one account (the same keys): only the profile's name tells them apart. */
const PROFILES = JSON.stringify({
  profiles: Object.fromEntries(
    ['team-a', 'team-b'].map((name) => [
      name,
      { SVC_GATEWAY_URL: ORIGIN, SVC_ACCESS_KEY: 'AK', SVC_SECRET_KEY: { env: 'PROFILE_SECRET' } },
    ]),
  ),
});

/**
 * A replica: its own server factory behind the SDK's per-request handler, in front of the mock upstream; with
 * `profile`, it runs with that credential profile (as --profile).
 */
function replica(env: Record<string, string>, profile?: string) {
  const command = parseCommand(profile ? ['--profile', profile] : [], {
    SVC_GATEWAY_URL: ORIGIN,
    SVC_ACCESS_KEY: 'AK',
    SVC_SECRET_KEY: 'secret-key-0123',
    ...(profile ? { SVC_PROFILES_FILE: '/profiles.json' } : {}),
    ...env,
  });
  if (command.kind !== 'serve') throw new Error('expected serve');
  const config = loadProfiles(command.config, {
    env: { PROFILE_SECRET: 'secret-key-0123' },
    readFile: () => PROFILES,
  });
  const create = createServerFactory(config, {
    upstream: upstreamOf(agent),
    now: Date.now,
    randomId: () => 'r',
    random: () => 0.5,
    log: () => {},
  });
  // Who asks, as a transport would tell it (an address key, a subject).
  let asker: string | undefined;
  const handler = createMcpHandler(() => create({ client: asker }));
  let id = 0;
  return async (params: Record<string, unknown>, client?: string) => {
    asker = client;
    return callDelete(handler, ++id, ENVELOPE, params);
  };
}

const text = (answer: { result?: Record<string, unknown> }) => (answer.result!.content as { text: string }[])[0]!.text;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-23T10:00:00Z'));
  ({ agent, deleted } = deletingUpstream());
});
afterEach(async () => {
  vi.useRealTimers();
  await agent.close();
});

describe('confirmation state', () => {
  it('holds for five minutes, then is refused (-32602) and nothing is sent', async () => {
    const call = replica({ SVC_MCP_STATE_KEY: KEY });
    const asked = await call({});
    expect(asked.result!.resultType).toBe('input_required');
    const requestState = asked.result!.requestState as string;

    vi.setSystemTime(new Date('2026-11-23T10:05:30Z'));
    const late = await call({ inputResponses: ACCEPT, requestState });
    expect(late.error?.code).toBe(-32602);
    expect(deleted()).toBe(0);

    const again = (await call({})).result!.requestState as string;
    vi.setSystemTime(new Date('2026-11-23T10:09:30Z'));
    const inTime = await call({ inputResponses: ACCEPT, requestState: again });
    expect(inTime.result!.isError, text(inTime)).toBeFalsy();
    expect(deleted()).toBe(1);
  });

  it('is accepted by a replica with the same SVC_MCP_STATE_KEY, refused by one with another key', async () => {
    const a = replica({ SVC_MCP_STATE_KEY: KEY });
    const b = replica({ SVC_MCP_STATE_KEY: KEY });
    const stranger = replica({});
    const requestState = (await a({})).result!.requestState as string;
    expect((await stranger({ inputResponses: ACCEPT, requestState })).error?.code).toBe(-32602);
    expect(deleted()).toBe(0);
    const other = await b({ inputResponses: ACCEPT, requestState });
    expect(other.result!.isError, text(other)).toBeFalsy();
    expect(deleted()).toBe(1);
  });

  it('is good for one call: the same answered state sent again is refused, and the delete goes out once', async () => {
    const call = replica({ SVC_MCP_STATE_KEY: KEY });
    const requestState = (await call({})).result!.requestState as string;
    const first = await call({ inputResponses: ACCEPT, requestState });
    expect(first.result!.isError, text(first)).toBeFalsy();
    const replayed = await call({ inputResponses: ACCEPT, requestState });
    expect(replayed.result!.isError).toBe(true);
    expect(text(replayed)).toMatch(/\[not_confirmed\]: this confirmation was already used.*Nothing was sent/);
    expect(deleted()).toBe(1);
  });

  it('answers only for the client it was asked by', async () => {
    const call = replica({ SVC_MCP_STATE_KEY: KEY });
    const requestState = (await call({}, '203.0.113.7')).result!.requestState as string;
    const other = await call({ inputResponses: ACCEPT, requestState }, '198.51.100.9');
    expect(text(other)).toMatch(/\[not_confirmed\]: the confirmation answered was asked by another client/);
    expect(deleted()).toBe(0);
    const own = await call({ inputResponses: ACCEPT, requestState }, '203.0.113.7');
    expect(own.result!.isError, text(own)).toBeFalsy();
    expect(deleted()).toBe(1);
  });

  it('answers only under the credential profile it was asked under', async () => {
    const a = replica({ SVC_MCP_STATE_KEY: KEY }, 'team-a');
    const b = replica({ SVC_MCP_STATE_KEY: KEY }, 'team-b');
    const requestState = (await a({})).result!.requestState as string;
    const other = await b({ inputResponses: ACCEPT, requestState });
    expect(text(other)).toMatch(
      /\[not_confirmed\]: the confirmation answered was asked under another credential profile/,
    );
    expect(deleted()).toBe(0);
    const own = await a({ inputResponses: ACCEPT, requestState });
    expect(own.result!.isError, text(own)).toBeFalsy();
    expect(deleted()).toBe(1);
  });

  it.each([
    ['empty', '', /SVC_MCP_STATE_KEY is set but empty/],
    ['blank', '   ', /SVC_MCP_STATE_KEY is set but empty/],
    ['an unresolved placeholder', '${user_config.state_key}', /SVC_MCP_STATE_KEY holds an unresolved placeholder/],
    ['a placeholder of another form', '${STATE_KEY}', /SVC_MCP_STATE_KEY holds an unresolved placeholder/],
  ])('stops the start when SVC_MCP_STATE_KEY is set but %s (no silent random key)', (_, value, message) => {
    expect(() => parseCommand([], { SVC_MCP_STATE_KEY: value })).toThrow(message);
  });

  it('refuses a short SVC_MCP_STATE_KEY at start-up', () => {
    expect(() => parseCommand([], { SVC_MCP_STATE_KEY: 'short' })).toThrow(
      /SVC_MCP_STATE_KEY must be at least 32 bytes/,
    );
  });
});
