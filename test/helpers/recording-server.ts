import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

/** One request exactly as it arrived on the wire. */
export interface RecordedRequest {
  method: string;
  /** Path and query exactly as received (nothing decoded or normalised). */
  url: string;
  /** Header names lower-cased by node. */
  headers: IncomingHttpHeaders;
  /** Header names with the case the client used, alternating name, value. */
  rawHeaders: string[];
  /** Raw body text ('' when none). */
  body: string;
  /** Epoch ms at which the request was complete. */
  receivedAt: number;
}

export type Reply =
  | {
      status?: number;
      headers?: Record<string, string>;
      /** A string or Buffer is sent as is; anything else as JSON (content type application/json unless given). */
      body?: unknown;
      /** Wait this long before answering. */
      delayMs?: number;
      /** Called once the whole answer is handed to the socket. */
      onSent?: () => void;
    }
  | { reset: true }
  | { hang: true };

type Responder = Reply | ((req: RecordedRequest) => Reply);

export interface RecordingServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Queue replies, used one per request in order; when the queue is empty the fallback answers. */
  reply(...responders: Responder[]): void;
  /** The answer used when the queue is empty (default: 200 `{}`). */
  setFallback(responder: Responder): void;
  /** Forget recorded requests and queued replies; restore the default fallback. */
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_FALLBACK: Reply = { status: 200, body: {} };

/** An HTTP server on 127.0.0.1 (random port) that records every request and answers as told. */
export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  let queue: Responder[] = [];
  let fallback: Responder = DEFAULT_FALLBACK;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      requests.push(recorded);
      const responder = queue.length > 0 ? queue.shift()! : fallback;
      const reply = typeof responder === 'function' ? responder(recorded) : responder;
      answer(req, res, reply);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function answer(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
    if ('hang' in reply) return; // never answer; the socket stays open until close()
    if ('reset' in reply) {
      req.socket.resetAndDestroy();
      return;
    }
    const send = () => {
      const headers: Record<string, string> = { ...(reply.headers ?? {}) };
      let text: string | Buffer = '';
      if (typeof reply.body === 'string' || Buffer.isBuffer(reply.body)) text = reply.body;
      else if (reply.body !== undefined) {
        text = JSON.stringify(reply.body);
        if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
          headers['content-type'] = 'application/json;charset=UTF-8';
        }
      }
      res.writeHead(reply.status ?? 200, headers);
      res.end(text, reply.onSent);
    };
    if (reply.delayMs) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, reply.delayMs);
      timers.add(timer);
    } else send();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('recording server has no port');
  const port = address.port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    reply: (...responders) => void queue.push(...responders),
    setFallback: (responder) => void (fallback = responder),
    reset: () => {
      requests.length = 0;
      queue = [];
      fallback = DEFAULT_FALLBACK;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
