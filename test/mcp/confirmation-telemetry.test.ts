/**
 * The confirmation's span, by the way the user is asked, as the MCP surface's confirmer tells the pipeline: the
 * `confirm` argument and the 2026-07-28 input request (the 2025 form by elicitation/create is in
 * test/e2e/telemetry/stdio.test.ts). In process, through the SDK's per-request handler, with a telemetry that records.
 */
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/config/index.js';
import { upstreamOf } from '../../src/upstream/http.js';
import { createServerFactory } from '../../src/server.js';
import type { Telemetry } from '../../src/telemetry/telemetry.js';
import { ARGS, ORIGIN, callDelete, deletingUpstream } from '../helpers/confirm-delete.js';

const FORMS = { elicitation: { form: {} } };
const answer = (action: string) => ({
  confirmation: { action, ...(action === 'accept' ? { content: { serviceId: 'rcs-home-feed' } } : {}) },
});

/** A confirmation span as it ended: its channel, and what it was ended with. */
interface Ended {
  channel: string;
  asked: boolean;
  answer?: 'confirmed' | 'refused';
}

let agent: MockAgent;
/** Deletions that reached the upstream. */
let deleted: () => number;

/** What a server tells its telemetry of confirmations: nothing else is recorded. */
function recording(spans: Ended[]): Telemetry {
  const none = { end() {} };
  return {
    traced: (transport) => transport,
    observeCalls() {},
    admission: () => none,
    confirmation: (channel) => ({ end: (result) => void spans.push({ channel, ...result }) }),
    attempt: () => none,
    callEnded() {},
    shutdown: async () => {},
  };
}

/** A server behind the SDK's per-request handler: each call a 2026-07-28 request with these client capabilities. */
function server(argv: string[], spans: Ended[]) {
  const command = parseCommand(argv, {
    SVC_GATEWAY_URL: ORIGIN,
    SVC_ACCESS_KEY: 'AK',
    SVC_SECRET_KEY: 'secret-key-0123',
  });
  if (command.kind !== 'serve') throw new Error('expected serve');
  const create = createServerFactory(command.config, {
    upstream: upstreamOf(agent),
    now: Date.now,
    randomId: () => 'r',
    random: () => 0.5,
    log: () => {},
    telemetry: recording(spans),
  });
  const handler = createMcpHandler(() => create());
  let id = 0;
  return async (capabilities: object, params: Record<string, unknown> = {}) => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': capabilities,
    };
    return (await callDelete(handler, ++id, meta, params)).result!;
  };
}

beforeEach(() => {
  ({ agent, deleted } = deletingUpstream());
});
afterEach(async () => {
  await agent.close();
});

describe('the confirmation span', () => {
  it('by the confirm argument: its absence asks, a wrong one is refused as answered, the id confirms', async () => {
    const spans: Ended[] = [];
    const call = server([], spans);
    expect((await call({})).isError).toBe(true);
    expect((await call({}, { arguments: { ...ARGS, confirm: 'other' } })).isError).toBe(true);
    expect((await call({}, { arguments: { ...ARGS, confirm: 'rcs-home-feed' } })).isError).toBeFalsy();
    expect(spans).toEqual([
      { channel: 'argument', asked: true },
      { channel: 'argument', asked: false, answer: 'refused' },
      { channel: 'argument', asked: false, answer: 'confirmed' },
    ]);
    expect(deleted()).toBe(1);
  });

  it('by an input request: the first call asks, its retry brings the answer, confirmed or refused', async () => {
    const spans: Ended[] = [];
    const call = server([], spans);
    const asked = await call(FORMS);
    expect(asked.resultType).toBe('input_required');
    const { requestState } = asked;
    expect((await call(FORMS, { inputResponses: answer('decline'), requestState })).isError).toBe(true);
    expect((await call(FORMS, { inputResponses: answer('accept'), requestState })).isError).toBeFalsy();
    expect(spans).toEqual([
      { channel: 'input-request', asked: true },
      { channel: 'input-request', asked: false, answer: 'refused' },
      { channel: 'input-request', asked: false, answer: 'confirmed' },
    ]);
    expect(deleted()).toBe(1);
  });

  it('is not opened with --no-confirm', async () => {
    const spans: Ended[] = [];
    const call = server(['--no-confirm'], spans);
    expect((await call(FORMS)).isError).toBeFalsy();
    expect(spans).toEqual([]);
    expect(deleted()).toBe(1);
  });
});
