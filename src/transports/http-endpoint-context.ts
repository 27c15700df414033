import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { Server } from '@modelcontextprotocol/server';
import type { HttpOptions } from '../config/index.js';
import type { ServerFactory } from '../server.js';
import type { OutgoingWire } from '../outgoing-wire.js';
import type { PerRequestHandler } from './http-per-request.js';
import type { SessionStore } from './http-sessions.js';

/** A 2025 session: its server, its transport, and its open response streams. */
export interface McpSession {
  server: Server;
  transport: NodeStreamableHTTPServerTransport;
  /** What the server is connected to: the transport, answering in the 2025 spelling. */
  wire: OutgoingWire<NodeStreamableHTTPServerTransport>;
  /** Its response streams still open (POST responses, the GET streams), for back-pressure. */
  responses: Set<ServerResponse>;
  /** The GET stream the SDK's transport serves (it takes one per session), while open. */
  standalone?: ServerResponse;
  /** Further GET streams, served here (see http-more-streams.ts). */
  quiet: Set<ServerResponse>;
  close(): Promise<void>;
}

/**
 * What a session's open responses hold in the process, unread: bytes the network has not taken yet. (The SDK
 * writes with back-pressure, so a stream that is not read keeps its current message here and the next ones in
 * its own queue: this is a lower bound of what waits.)
 */
export function unreadBytes(responses: Iterable<Pick<ServerResponse, 'writableLength'>>): number {
  let total = 0;
  for (const res of responses) total += res.writableLength;
  return total;
}

/**
 * Session ids are random UUIDs, prefixed with `<SVC_MCP_REPLICA_ID>.` when that is set: a reverse proxy routes
 * a request to the replica that holds its session by that prefix alone (see deploy/nginx). Both parts are
 * visible ASCII, as the spec requires of a session id.
 */
export function sessionIdGenerator(replicaId: string | undefined): () => string {
  return replicaId ? () => `${replicaId}.${randomUUID()}` : randomUUID;
}

/** The 403 of a request that needs scopes its token lacks (OAuth mode: its step-up challenge). */
export type ScopeRefusal = (scopes: readonly string[]) => { message: string; headers: Record<string, string> };

/** What every method of the endpoint works with: one per server. */
export interface EndpointContext {
  create: ServerFactory;
  options: HttpOptions;
  sessions: SessionStore<McpSession>;
  scopeRefusal?: ScopeRefusal;
  newSessionId: () => string;
  /** 2026-07-28 requests, served per request in both modes. */
  perRequest: PerRequestHandler;
}
