import { describe, expect, it } from 'vitest';
import {
  MAX_MESSAGE_DEPTH,
  errorAnswer,
  invalidMessage,
  prototypeKeyIn,
  tooDeep,
} from '../../src/transports/jsonrpc-check.js';

describe('invalidMessage', () => {
  it('lets requests, notifications and responses with string or integer ids through', () => {
    expect(invalidMessage({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBeUndefined();
    expect(invalidMessage({ jsonrpc: '2.0', id: 'a-1', method: 'tools/list', params: {} })).toBeUndefined();
    expect(invalidMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(invalidMessage({ jsonrpc: '2.0', id: 7, result: { action: 'accept' } })).toBeUndefined();
  });

  it.each([
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'ping' }], /batches are not supported/],
    ['an empty batch', [], /batches are not supported/],
    ['a number', 42, /must be a JSON object/],
    ['null', null, /must be a JSON object/],
    ['no jsonrpc', { id: 1, method: 'ping' }, /"jsonrpc" must be "2.0"/],
    ['no method', { jsonrpc: '2.0', id: 1 }, /needs a "method"/],
    ['a method that is a number', { jsonrpc: '2.0', id: 1, method: 5 }, /"method" must be a string/],
    ['id null', { jsonrpc: '2.0', id: null, method: 'ping' }, /"id" must be a string or an integer/],
    ['id an object', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, /"id"/],
    ['id an array', { jsonrpc: '2.0', id: [1], method: 'ping' }, /"id"/],
    ['id 1.5', { jsonrpc: '2.0', id: 1.5, method: 'ping' }, /"id"/],
    ['id true', { jsonrpc: '2.0', id: true, method: 'ping' }, /"id"/],
  ])('refuses %s as an invalid request', (_, message, why) => {
    const error = invalidMessage(message);
    expect(error?.code).toBe(-32600);
    expect(error?.message).toMatch(why);
  });

  it('answers with id null', () => {
    expect(JSON.parse(errorAnswer({ code: -32700, message: 'Parse error' }))).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
  });
});

describe('hostile shapes', () => {
  const nested = (levels: number) => {
    let value: unknown = 'x';
    for (let i = 0; i < levels; i++) value = { a: value };
    return { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: value } };
  };

  it('refuses a message nested deeper than MAX_MESSAGE_DEPTH, and only that', () => {
    expect(tooDeep(nested(5_000))).toEqual({
      code: -32600,
      message: `Invalid Request: the message is nested deeper than ${MAX_MESSAGE_DEPTH} levels`,
    });
    expect(tooDeep(nested(MAX_MESSAGE_DEPTH - 3))).toBeUndefined();
  });

  it('names a prototype key anywhere in the arguments, the top level included', () => {
    const call = (args: string) =>
      JSON.parse(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":${args}}}`);
    expect(prototypeKeyIn(call('{"__proto__":{"a":1}}'))?.message).toMatch(/^Invalid params: arguments\.__proto__: /);
    expect(prototypeKeyIn(call('{"a":[{"constructor":1}]}'))?.message).toMatch(/arguments\.a\.0\.constructor/);
    expect(prototypeKeyIn(call('{"a":{"b":{"prototype":2}}}'))?.code).toBe(-32602);
    expect(prototypeKeyIn(call('{"a":{"proto":1,"name":"constructor"}}'))).toBeUndefined();
  });
});
