import type { IncomingMessage, ServerResponse } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

/**
 * The further `GET /mcp` streams of one 2025 session. The spec lets a client open several (the Vercel AI SDK
 * does); the SDK's transport keeps one per session and answers another with 409. Each message goes on one stream
 * only, and the SDK's stream carries them, so a further stream is served here: open, kept alive with the comment
 * the SDK sends, carrying no message, ended with its session. A request the SDK would refuse before its own
 * conflict check (no `text/event-stream` in Accept, an unsupported MCP-Protocol-Version) is left to it.
 */

/** As the SDK's own streams: a comment this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

export function servesQuietly(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? '';
  const version = req.headers['mcp-protocol-version'];
  const supported =
    version === undefined || (typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version));
  return accept.includes('text/event-stream') && supported;
}

/** Opens a stream that carries no message; `streams` holds it while it is open (its session ends what is left). */
export function openQuietStream(res: ServerResponse, sessionId: string, streams: Set<ServerResponse>): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    'mcp-session-id': sessionId,
  });
  res.flushHeaders();
  const timer = setInterval(() => res.write(': keepalive\n\n'), KEEP_ALIVE_MS);
  timer.unref();
  streams.add(res);
  res.once('close', () => {
    clearInterval(timer);
    streams.delete(res);
  });
}

/** Ends a session's further streams (the session closed). */
export function endQuietStreams(streams: Set<ServerResponse>): void {
  for (const res of streams) res.end();
  streams.clear();
}
