// A raw newline-delimited JSON-RPC client over a child's stdio: no SDK, so that it costs every server the same.

export const PROTOCOL_VERSION = '2025-06-18';

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
};
export const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
export const TOOLS_LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

/** The per-request envelope of protocol 2026-07-28: no initialize, the version and capabilities in each request. */
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '0' },
};

/** A request of the 2026-07-28 era: the same method and params, with the envelope in _meta. */
export const modern = (message) => ({
  ...message,
  params: { ...message.params, _meta: { ...message.params?._meta, ...MODERN_META } },
});

/** Reads the child's stdout as lines of JSON and hands each response to whoever waits for its id. */
export class LineClient {
  constructor(child) {
    this.child = child;
    this.waiting = new Map();
    this.buffer = '';
    this.closed = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => this.#onData(chunk));
    child.once('exit', (code, signal) => {
      this.closed = true;
      for (const { reject } of this.waiting.values()) reject(new Error(`server exited (${code ?? signal})`));
      this.waiting.clear();
    });
  }

  #onData(chunk) {
    this.buffer += chunk;
    let newline;
    while ((newline = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      if (message.id === undefined) continue; // notifications (logging) are not answers
      const waiter = this.waiting.get(message.id);
      if (waiter) {
        this.waiting.delete(message.id);
        waiter.resolve({ message, bytes: Buffer.byteLength(line) });
      }
    }
  }

  send(message) {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Sends a request and resolves with { message, bytes } of its answer. */
  request(message) {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error('server has exited'));
      this.waiting.set(message.id, { resolve, reject });
      this.send(message);
    });
  }
}
