import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { RPC_ERROR } from '../jsonrpc-errors.js';

/**
 * A message as the 2025 revisions spell it. Resource not found is -32002 there and -32602 in 2026-07-28; the SDK
 * sends -32602 in both eras, so a 2025 answer that carries the unknown URI (and nothing else) gets its own code.
 */
export function toLegacyWire(message: JSONRPCMessage): JSONRPCMessage {
  const error = (message as { error?: { code?: unknown; data?: unknown } }).error;
  if (error?.code !== RPC_ERROR.InvalidParams) return message;
  const data = error.data as Record<string, unknown> | undefined;
  if (typeof data?.uri !== 'string' || Object.keys(data).length !== 1) return message;
  return { ...message, error: { ...error, code: RPC_ERROR.ResourceNotFound } } as JSONRPCMessage;
}

/** A 2025 transport whose answers go out in the 2025 spelling (see toLegacyWire); everything else passes through. */
export class LegacyWire<T extends Transport> implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  readonly inner: T;

  constructor(inner: T) {
    this.inner = inner;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(toLegacyWire(message), options);
  }
}
