/**
 * translate_and_summarize summarizes a translation of any accepted length (issue 26, point 2): one that grows past
 * what one completion's prompt may hold (Korean to English grows 2-3 times) is summarized in parts, then the parts'
 * summaries. In process, against undici's MockAgent.
 */
import { MockAgent } from 'undici';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../../src/catalogue/fields.js';
import { byArgument } from '../../src/mcp/confirmation.js';
import { workflowTool } from '../helpers/workflow.js';

const ORIGIN = 'http://upstream.test';
let agent: MockAgent;
beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
});
afterEach(() => agent.close());

it('summarizes in parts, then the parts, when the translation outgrows one prompt', async () => {
  const tool = workflowTool({
    origin: ORIGIN,
    dispatcher: agent,
    env: {
      SVC_CLIENT_ID: 'client-id-1',
      SVC_CLIENT_SECRET: 'client-secret-Zq81',
      SVC_STUDIO_API_KEY: 'studio-key-0123',
      SVC_STUDIO_GATEWAY_KEY: 'studio-gw-0123',
    },
    maxResultBytes: 1_000_000,
  });

  // Each of the three translated pieces is 40% of what one prompt may hold: 120% together.
  const grown = Math.floor(SERVER_LIMITS.promptChars * 0.4);
  const pool = agent.get(ORIGIN);
  pool
    .intercept({ path: '/nmt/v1/translation', method: 'POST' })
    .reply(
      200,
      { message: { result: { translatedText: 'w '.repeat(grown / 2), srcLangType: 'ko' } } },
      {
        headers: { 'content-type': 'application/json' },
      },
    )
    .times(3);
  const prompts: number[] = [];
  pool
    .intercept({ path: (path) => path.startsWith('/testapp/v1/completions/'), method: 'POST' })
    .reply((request) => {
      const { text } = JSON.parse(String(request.body)) as { text: string };
      prompts.push(text.length);
      return {
        statusCode: 200,
        data: {
          status: { code: '20000', message: 'OK' },
          result: { text: `summary ${prompts.length}`, stopReason: 'end_token', inputLength: 10, outputLength: 2 },
        },
        responseOptions: { headers: { 'content-type': 'application/json' } },
      };
    })
    .times(3);

  const sentence = 'A sentence of the source text, long enough to need three calls to translate. ';
  const text = sentence.repeat(Math.ceil(12_000 / sentence.length));
  const outcome = await tool.call(
    { text, source: 'ko', target: 'en' },
    {
      signal: new AbortController().signal,
      note: () => {},
      progress: async () => {},
      confirmer: byArgument,
    },
  );
  if (outcome.kind !== 'result') throw new Error('expected a result');
  const result = outcome.result;
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  // Two parts, then the summary of their summaries; no prompt over the limit.
  expect(prompts).toHaveLength(3);
  for (const length of prompts) expect(length).toBeLessThanOrEqual(SERVER_LIMITS.promptChars);
  expect(result.structuredContent).toMatchObject({ summary: 'summary 3', chunks: 3, tokens: { input: 30, output: 6 } });
});
