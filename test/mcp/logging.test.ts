/**
 * Capabilities that promise something (issue 11, item 12): logging sends useful messages (a retry and its wait)
 * on the call's own stream and honours logging/setLevel; the lists of resources and prompts never change, and say so.
 */
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connect, type Harness } from './harness.js';

let h: Harness;
const messages: LoggingMessageNotification['params'][] = [];
beforeAll(async () => {
  h = await connect();
  h.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void messages.push(n.params));
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => {
  messages.length = 0;
  h.sandbox.faults.clear();
});

describe('capabilities', () => {
  it('declares logging, and lists of resources and prompts that do not change', () => {
    const caps = h.client.getServerCapabilities()!;
    expect(caps.logging).toEqual({});
    expect(caps.resources).toEqual({ listChanged: false });
    expect(caps.prompts).toEqual({ listChanged: false });
    expect(caps.tools).toEqual({ listChanged: false });
  });
});

describe('log messages', () => {
  it('tells the client about a retry and its wait, as a warning', async () => {
    h.sandbox.faults.set('GET /CloudSearch/real/v1/tokenizer', { status: 503, times: 1 });
    const result = await h.client.callTool({ name: 'search_list_tokenizer_languages', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ level: 'warning', logger: 'svc-platform-mcp' });
    expect(messages[0]!.data).toMatch(/^search_list_tokenizer_languages: .*HTTP 503.*; attempt 2 of 3 in \d+ ms$/);
  });

  it('sends nothing below the level the client set', async () => {
    await h.client.setLoggingLevel('error');
    h.sandbox.faults.set('GET /CloudSearch/real/v1/tokenizer', { status: 503, times: 1 });
    await h.client.callTool({ name: 'search_list_tokenizer_languages', arguments: {} });
    expect(messages).toEqual([]);
    await h.client.setLoggingLevel('debug');
  });
});
