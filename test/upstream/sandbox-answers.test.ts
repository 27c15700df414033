/**
 * The platform client against the real sandbox in process (no MCP client): answers in every format E5 offers reach the
 * caller with their maps status read, and the big integers and the limits the spec does not state are handled end to
 * end.
 */
import { randomUUID } from 'node:crypto';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reverseGeocode } from '../../src/catalogue/maps.js';
import type { AnyOperation } from '../../src/catalogue/types.js';
import { parseCommand } from '../../src/config/index.js';
import { execute, type Failed } from '../helpers/attempts.js';
import type { ExchangeDeps } from '../../src/upstream/index.js';
import { upstreamOf } from '../../src/upstream/http.js';
import { sandboxConfig, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { clientSettings } from '../../src/server.js';

let sandbox: Sandbox;
let deps: ExchangeDeps;
const dispatcher = new Agent();

beforeAll(async () => {
  sandbox = await startSandbox();
  const command = parseCommand([], {});
  if (command.kind !== 'serve') throw new Error('expected a serve command');
  deps = {
    settings: clientSettings(sandboxConfig(command.config, sandbox)),
    upstream: upstreamOf(dispatcher),
    now: Date.now,
    requestId: randomUUID,
    random: Math.random,
  };
});

afterAll(async () => {
  await dispatcher.close();
  await sandbox?.close();
});

const failed = (op: AnyOperation, args: unknown) =>
  execute(op, args, deps).then(
    () => {
      throw new Error('expected a failure');
    },
    (failure: Failed) => failure,
  );

describe('E5 through the sandbox: the maps status in XML and JSONP', () => {
  it.each([
    ['XML', { output: 'xml' }],
    ['JSONP', { output: 'json', callback: 'cb' }],
    ['JSON', { output: 'json' }],
  ])('%s: an invalid request keeps its maps code 100', async (_, format) => {
    const failure = await failed(reverseGeocode, { coords: '500,500', ...format });
    expect(failure.code).toBe('upstream_error');
    expect(failure.upstreamCode).toBe('100');
    expect(failure.httpStatus).toBe(400);
    expect(failure.message).toMatch(
      /^upstream error 100: invalid request: coords 500,500 are outside the range of EPSG:4326/,
    );
  });

  it.each([
    ['XML', { output: 'xml' }, /<code>3<\/code>/],
    ['JSONP', { output: 'json', callback: 'cb' }, /^cb\(\{"status":\{"code":3/],
  ])('%s: "no results" (over the sea) is an answer, passed on as it came', async (_, format, shape) => {
    const { answer } = await execute(reverseGeocode, { coords: '129.5,35.0', ...format }, deps);
    expect(answer.kind).toBe('text');
    expect(answer.value).toMatch(shape);
  });
});
