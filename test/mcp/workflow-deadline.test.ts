/**
 * translate_and_summarize has one deadline for all its calls (SVC_WORKFLOW_TIMEOUT_MS), and its progress says how
 * much of it is left: in process, against undici's MockAgent, with fake timers.
 */
import { MockAgent } from 'undici';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { byArgument } from '../../src/mcp/confirmation.js';
import { workflowTool } from '../helpers/workflow.js';

const ORIGIN = 'http://upstream.test';
let agent: MockAgent;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  agent = new MockAgent();
  agent.disableNetConnect();
});
afterEach(async () => {
  vi.useRealTimers();
  await agent.close();
});

it('ends every call at the flow deadline, named in the error, with the time left in each progress message', async () => {
  const tool = workflowTool({
    origin: ORIGIN,
    dispatcher: agent,
    env: { SVC_WORKFLOW_TIMEOUT_MS: '1500', SVC_CLIENT_ID: 'client-id-1', SVC_CLIENT_SECRET: 'client-secret-Zq81' },
  });

  // Every translation takes 600 ms: two fit in the 1500 ms, the third is cut at 1500 ms (SVC_TIMEOUT_MS is 30 s).
  for (let i = 0; i < 3; i++) {
    agent
      .get(ORIGIN)
      .intercept({ path: '/nmt/v1/translation', method: 'POST' })
      .reply(
        200,
        { message: { result: { translatedText: 'x', srcLangType: 'en' } } },
        { headers: { 'content-type': 'application/json' } },
      )
      .delay(600);
  }
  const messages: string[] = [];
  const hooks = {
    signal: new AbortController().signal,
    note: () => {},
    confirmer: byArgument,
    progress: async (_done: number, _total: number, message: string) => void messages.push(message),
  };
  const text = Array.from(
    { length: 200 },
    (_, i) => `Sentence number ${i} talks about the harbour and the hills.`,
  ).join(' ');
  const started = Date.now();
  const call = tool.call({ text, target: 'ko', source: 'en' }, hooks);
  await vi.advanceTimersByTimeAsync(5000);
  const outcome = await call;
  if (outcome.kind !== 'result') throw new Error('expected a result');
  const result = outcome.result;

  expect(result.isError).toBe(true);
  expect((result.content[0] as { text: string }).text).toMatch(
    /^translate_and_summarize failed at step "translate chunk 3 of 3" \[timeout\]: no complete answer from upstream within the call's deadline \(SVC_WORKFLOW_TIMEOUT_MS\)/,
  );
  expect(messages).toEqual([
    'translating chunk 1 of 3 (2 s left)',
    'translating chunk 2 of 3 (1 s left)',
    'translating chunk 3 of 3 (1 s left)',
  ]);
  expect(Date.now() - started).toBe(5000); // the clock ran on; the call itself ended at the deadline
});
