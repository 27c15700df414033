// A raw Streamable HTTP MCP client on undici: one POST per message, answers read as JSON or as SSE `data:` lines.
// No SDK, so that it measures the server rather than a client library.
import { request } from 'undici';
import { INITIALIZE, INITIALIZED, PROTOCOL_VERSION } from './jsonrpc-lines.mjs';

export class RawHttpSession {
  /** `headers`: sent with every request (an `authorization` header). */
  constructor(url, dispatcher, headers = {}) {
    this.url = url;
    this.dispatcher = dispatcher;
    this.extraHeaders = headers;
    this.sessionId = undefined;
    this.nextId = 10;
  }

  headers() {
    const h = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL_VERSION,
      ...this.extraHeaders,
    };
    if (this.sessionId) h['mcp-session-id'] = this.sessionId;
    return h;
  }

  async post(message) {
    const res = await request(this.url, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify(message),
      dispatcher: this.dispatcher,
    });
    const text = await res.body.text();
    if (res.statusCode >= 400) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
    const sid = res.headers['mcp-session-id'];
    if (sid) this.sessionId = sid;
    if (message.id === undefined) return undefined;
    const type = String(res.headers['content-type'] ?? '');
    if (type.startsWith('text/event-stream')) {
      for (const line of text.split('\n')) {
        if (!line.startsWith('data:')) continue;
        const data = JSON.parse(line.slice(5));
        if (data.id === message.id) return data;
      }
      throw new Error(`no answer to ${message.id} in the event stream`);
    }
    return JSON.parse(text);
  }

  /** initialize + notifications/initialized (in stateless mode there is no session id, and that is fine). */
  async open() {
    const answer = await this.post(INITIALIZE);
    if (answer.error) throw new Error(`initialize: ${JSON.stringify(answer.error)}`);
    await this.post(INITIALIZED);
    return this;
  }

  async call(name, args = {}) {
    const answer = await this.post({
      jsonrpc: '2.0',
      id: this.nextId++,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    if (answer.error || answer.result?.isError)
      throw new Error(`${name}: ${JSON.stringify(answer.error ?? answer.result).slice(0, 300)}`);
    return answer.result;
  }

  async close() {
    if (!this.sessionId) return;
    const res = await request(this.url, { method: 'DELETE', headers: this.headers(), dispatcher: this.dispatcher });
    await res.body.dump();
  }
}
