import { ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * Every JSON-RPC error code this server answers with, in one table: the SDK's own constants where it has them, and the
 * codes of JSON-RPC's implementation-defined range (-32000 to -32099) that our transports use, as the SDK's Streamable
 * HTTP transport uses them.
 */
export const RPC_ERROR = {
  ParseError: ProtocolErrorCode.ParseError,
  InvalidRequest: ProtocolErrorCode.InvalidRequest,
  InvalidParams: ProtocolErrorCode.InvalidParams,
  InternalError: ProtocolErrorCode.InternalError,
  /** Resource not found as the 2025 revisions spell it (2026-07-28 uses InvalidParams). */
  ResourceNotFound: ProtocolErrorCode.ResourceNotFound,
  /** A request the server refuses as such (method, media type, origin, size, shutting down). */
  ServerError: -32000,
  /** HTTP without a valid bearer token (401) or beyond its scopes (403), or naming a session not held here (404). */
  Unauthorized: -32001,
  SessionNotFound: -32001,
} as const;
