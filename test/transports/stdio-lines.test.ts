import { once } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { invalidMessage } from '../../src/transports/jsonrpc-check.js';
import { LineFilter, LineSplitter, checkLine, type LineEvent } from '../../src/transports/stdio-lines.js';

const lines = (splitter: LineSplitter, ...chunks: string[]): LineEvent[] => {
  const events: LineEvent[] = [];
  for (const chunk of chunks) {
    splitter.push(Buffer.from(chunk));
    for (let event = splitter.next(); event; event = splitter.next()) events.push(event);
  }
  return events;
};
const text = (event: LineEvent | undefined) => (event?.kind === 'line' ? event.line.toString() : event);

describe('LineSplitter', () => {
  it('splits at newlines, across chunks and several per chunk, keeping each line as it came (\\r included)', () => {
    const splitter = new LineSplitter(100);
    const events = lines(splitter, '{"a":', '1}\n{"b":2}\r\n\n{"c"', ':3}\n');
    expect(events.map(text)).toEqual(['{"a":1}', '{"b":2}\r', '', '{"c":3}']);
    expect(splitter.end()).toBeUndefined();
  });

  it('keeps a line of exactly the limit; a longer one is reported with its size, and the next line is whole', () => {
    const splitter = new LineSplitter(10);
    expect(lines(splitter, `${'x'.repeat(10)}\n`).map(text)).toEqual(['x'.repeat(10)]);
    const events = lines(splitter, 'y'.repeat(6), 'y'.repeat(6), 'y'.repeat(20), 'y\nok\n');
    expect(events[0]).toEqual({ kind: 'too_large', bytes: 33 });
    // The rest of the long line was dropped as it came: the next line arrives intact.
    expect(events.slice(1).map(text)).toEqual(['ok']);
  });

  it('reports the line after an oversized one, in the same chunk', () => {
    const splitter = new LineSplitter(4);
    expect(lines(splitter, 'toolong\nok\n').map((e) => (e.kind === 'line' ? e.line.toString() : e))).toEqual([
      { kind: 'too_large', bytes: 7 },
      'ok',
    ]);
  });

  it('gives the last line without a newline at the end, and nothing when there is none', () => {
    const splitter = new LineSplitter(100);
    expect(lines(splitter, '{"a":1}\n{"b"').map(text)).toEqual(['{"a":1}']);
    expect(text(splitter.end())).toBe('{"b"');
    expect(splitter.end()).toBeUndefined();
  });

  it('can stop between two lines of one chunk and go on later', () => {
    const splitter = new LineSplitter(100);
    splitter.push(Buffer.from('1\n2\n3\n'));
    expect(text(splitter.next())).toBe('1');
    expect(() => splitter.push(Buffer.from('4\n'))).toThrow(/still has lines/);
    expect(text(splitter.next())).toBe('2');
    expect(text(splitter.next())).toBe('3');
    expect(splitter.next()).toBeUndefined();
  });
});

describe('checkLine', () => {
  const check = (line: string) => checkLine(Buffer.from(line));
  const answer = (line: string) => {
    const verdict = check(line);
    if (verdict.kind !== 'answer') throw new Error(`expected an answer for ${line}, got ${JSON.stringify(verdict)}`);
    return JSON.parse(verdict.answer) as { id: unknown; error: { code: number; message: string } };
  };

  it('passes requests (with their id), notifications and responses; blank lines are nothing', () => {
    const list = { jsonrpc: '2.0', id: 7, method: 'tools/list' };
    expect(check(JSON.stringify(list))).toEqual({ kind: 'pass', message: list, requestId: 7 });
    expect(check('{"jsonrpc":"2.0","id":"a","method":"ping"}\r')).toMatchObject({ kind: 'pass', requestId: 'a' });
    expect(check('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toEqual({
      kind: 'pass',
      message: { jsonrpc: '2.0', method: 'notifications/initialized' },
    });
    expect(check('{"jsonrpc":"2.0","id":3,"result":{"action":"accept"}}')).not.toHaveProperty('requestId');
    expect(check('   \r')).toEqual({ kind: 'blank' });
  });

  it('answers what is not JSON with a parse error, id null', () => {
    expect(answer('{"jsonrpc":')).toMatchObject({ id: null, error: { code: -32700 } });
    expect(answer('hello')).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it('answers what MCP does not accept with an invalid request, id null (the check shared with HTTP)', () => {
    expect(answer('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(answer('{"jsonrpc":"2.0","id":null,"method":"ping"}').error.message).toMatch(/"id"/);
    expect(answer('{"jsonrpc":"2.0","id":{},"method":"ping"}').error.message).toMatch(/"id"/);
    expect(answer('{"jsonrpc":"1.0","id":1,"method":"ping"}').error.message).toMatch(/"jsonrpc"/);
  });

  it("answers what the SDK would drop silently under the request's own id when it has one", () => {
    expect(answer('{"jsonrpc":"2.0","id":4,"method":"tools/list","params":5}')).toMatchObject({
      id: 4,
      error: { code: -32600 },
    });
    expect(answer('{"jsonrpc":"2.0","id":5,"method":"ping","extra":true}')).toMatchObject({
      id: 5,
      error: { code: -32600 },
    });
    expect(answer('{"jsonrpc":"2.0","method":"notifications/x","params":[1]}')).toMatchObject({
      id: null,
      error: { code: -32600 },
    });
  });
});

/** A stdout stand-in: records each write; `hold` keeps writes unfinished, so that it backs up. */
class RecordingOutput extends Writable {
  readonly writes: string[] = [];
  #held: (() => void)[] = [];
  hold = false;

  constructor() {
    super({ highWaterMark: 64 });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.writes.push(chunk.toString());
    if (this.hold) this.#held.push(() => done());
    else done();
  }

  release(): void {
    this.hold = false;
    for (const done of this.#held.splice(0)) done();
  }
}

function filterWith(options: { maxLineBytes?: number } = {}) {
  const output = new RecordingOutput();
  const logged: { reason: string; bytes: number }[] = [];
  const filter = new LineFilter({ output, maxLineBytes: options.maxLineBytes, log: (entry) => logged.push(entry) });
  const passed: string[] = [];
  filter.on('data', (message: object) => passed.push(JSON.stringify(message)));
  return { output, filter, passed, logged };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Until the filter has handled every line it received (one per turn of the event loop), and a turn more for its last
 * push.
 */
async function settled(filter: LineFilter): Promise<void> {
  for (let turns = 0; !filter.idle; turns += 1) {
    if (turns > 1000) throw new Error('the filter is still busy after 1000 turns of the event loop');
    await turn();
  }
  await turn();
}

describe('checkLine agrees with the SDK on every message', () => {
  // Each member absent (undefined) or one of several values, good and bad; every combination is checked.
  const ids = [undefined, 1, 'a', 1.5, null, { x: 1 }];
  const methods = [undefined, 'tools/call', 3];
  const metas = [
    undefined,
    null,
    [],
    {},
    { progressToken: 't' },
    { progressToken: 7 },
    { progressToken: 1.5 },
    { progressToken: null },
    { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
    { 'io.modelcontextprotocol/protocolVersion': 5, progressToken: 'p' },
    { progressToken: undefined },
    { progressToken: 't', other: 1 },
    { 'io.modelcontextprotocol/related-task': { taskId: 1 } },
    { 'io.modelcontextprotocol/related-task': { taskId: 'k' } },
  ];
  const paramsOf = (meta: unknown) => [
    undefined,
    null,
    [],
    'p',
    {},
    { name: 'x', arguments: {} },
    { _meta: meta, name: 'x' },
  ];
  const extras = [{}, { extra: 1 }, { result: {} }, { error: { code: 1, message: 'm' } }];

  it('passes exactly what the SDK reads, with or without the quick check', () => {
    let checked = 0;
    for (const id of ids)
      for (const method of methods)
        for (const meta of metas)
          for (const params of paramsOf(meta))
            for (const extra of extras) {
              const message: Record<string, unknown> = { jsonrpc: '2.0', ...extra };
              if (id !== undefined) message.id = id;
              if (method !== undefined) message.method = method;
              if (params !== undefined) message.params = params;
              const sdkReads =
                invalidMessage(message) === undefined &&
                !specTypeSchemas.JSONRPCMessage['~standard'].validate(message).issues;
              const verdict = checkLine(Buffer.from(JSON.stringify(message)));
              expect(verdict.kind, JSON.stringify(message)).toBe(sdkReads ? 'pass' : 'answer');
              checked += 1;
            }
    expect(checked).toBe(ids.length * methods.length * metas.length * 7 * extras.length);
  });
});

describe('LineFilter', () => {
  it('passes each good line parsed, one message per chunk; answers bad ones on the output, one whole line per write', async () => {
    const { output, filter, passed, logged } = filterWith();
    filter.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"meth');
    filter.write('od":"ping"}\r\nnot json\n\n[1]\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    filter.end();
    await once(filter, 'finish');
    await settled(filter);
    expect(passed).toEqual([
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":2,"method":"ping"}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    ]);
    expect(output.writes).toHaveLength(2);
    for (const write of output.writes) expect(write).toMatch(/^\{[^\n]*\}\n$/);
    expect(output.writes.map((w) => (JSON.parse(w) as { error: { code: number } }).error.code)).toEqual([
      -32700, -32600,
    ]);
    expect(logged.map((l) => l.reason)).toEqual(['parse_error', 'invalid_request']);
  });

  it('answers a line over its limit without keeping it, then goes on', async () => {
    const { output, filter, passed, logged } = filterWith({ maxLineBytes: 64 });
    filter.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(100)}`);
    filter.write(`${'x'.repeat(100)}"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`);
    await settled(filter);
    expect(JSON.parse(output.writes[0]!)).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringMatching(/over 64 bytes/) },
    });
    expect(logged).toEqual([{ event: 'stdio_refused', reason: 'too_large', bytes: 260 }]);
    expect(passed).toEqual(['{"jsonrpc":"2.0","id":2,"method":"ping"}']);
  });

  it('takes no more lines while the output is backed up, and goes on when it drains', async () => {
    const { output, filter, passed } = filterWith();
    output.hold = true;
    output.write('x'.repeat(100)); // over the output's high-water mark: it now needs a drain
    expect(output.writableNeedDrain).toBe(true);
    const accepted = filter.write(
      '{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
    );
    // Turns enough for both lines, were the filter not waiting for the output to drain.
    for (let i = 0; i < 10; i += 1) await turn();
    expect(passed).toEqual([]);
    // The filter holds the chunk: a pipe from stdin would now be paused.
    expect(accepted).toBe(true);
    expect(filter.writableLength).toBeGreaterThan(0);
    output.release();
    await settled(filter);
    expect(passed).toHaveLength(2);
    expect(filter.writableLength).toBe(0);
  });

  it('once told to refuse requests, answers them under their id and still passes notifications and responses', async () => {
    const { output, filter, passed, logged } = filterWith();
    filter.refuseRequests();
    filter.write('{"jsonrpc":"2.0","id":9,"method":"tools/list"}\n');
    filter.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}\n');
    filter.write('{"jsonrpc":"2.0","id":0,"result":{"action":"accept","content":{}}}\n');
    await settled(filter);
    expect(JSON.parse(output.writes[0]!)).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32000, message: expect.stringMatching(/shutting down/) },
    });
    expect(passed).toHaveLength(2);
    expect(logged.map((l) => l.reason)).toEqual(['shutting_down']);
  });

  it('writes nothing to an output that is gone', async () => {
    const { output, filter } = filterWith();
    output.destroy();
    filter.write('not json\n');
    await settled(filter);
    expect(output.writes).toEqual([]);
  });
});

describe('checkLine and batches', () => {
  const batch = Buffer.from('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}]');

  it('passes a batch on under a version that had batches, with its requests’ ids', () => {
    expect(checkLine(batch, '2025-03-26')).toMatchObject({ kind: 'batch', requestIds: [1] });
  });

  it.each([undefined, '2025-06-18', '2025-11-25'])('refuses a batch under %s', (version) => {
    expect(checkLine(batch, version)).toMatchObject({ kind: 'answer', reason: 'invalid_request' });
  });
});
