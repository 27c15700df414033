import { ROOT_CONTEXT, type Context, type TextMapGetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { OutgoingWire } from '../outgoing-wire.js';
import { endWith, type CallSpans, type RequestScope } from './call-spans.js';
import { defined, type Instruments } from './instruments.js';
import { ATTR, MAX_ATTRIBUTE_CHARS, MCP_METHODS, OTHER, TOOL_ERROR } from './names.js';
import type { KnownNames, NetworkTransport } from './telemetry.js';

export interface TracedOptions {
  calls: CallSpans;
  instruments: Instruments;
  network: NetworkTransport;
  known: KnownNames;
  /** The egress redactor's: what a client chose passes it before it is recorded. */
  redact: (text: string) => string;
  /** The tool arguments as recorded (redacted), when SVC_TELEMETRY_TOOL_ARGUMENTS asks for them. */
  argumentsOf?: (args: unknown) => string;
}

/** A request received and not answered yet. */
interface Open {
  scope: RequestScope;
  started: number;
  /** What its duration metric is recorded with (low cardinality: no ids). */
  attributes: Record<string, string | undefined>;
}

const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';
const propagator = new W3CTraceContextPropagator();

/**
 * A server's transport, with a SERVER span per request it receives (the MCP semantic conventions' name and
 * attributes), ended by the response that answers it, and `mcp.server.operation.duration` recorded then. The span's
 * parent is the client's trace context: `traceparent`/`tracestate` in the request's `_meta` (the 2026-07-28 way, and
 * what OpenTelemetry's MCP instrumentations send in either era), else the HTTP request's `traceparent` header. The
 * request is handled within its span (call-spans.ts), so that the call's stages and upstream attempts are its
 * children. Only what names the request is read: no argument value (unless asked for, redacted), no result. A name
 * the server does not know (a tool, prompt, method, resource URI or protocol version) is recorded as `_OTHER`, so
 * that a client cannot make attribute sets without end, and so is a request id longer than MAX_ATTRIBUTE_CHARS; all
 * of it passes the egress redactor.
 */
export class TracedTransport extends OutgoingWire {
  readonly #options: TracedOptions;
  readonly #open = new Map<string | number, Open>();
  /** The version the connection settled on (a 2025 initialize), for the requests that do not carry one. */
  #version: string | undefined;
  /** When the 2025 session began (its initialize), for mcp.server.session.duration. */
  #sessionStarted: number | undefined;

  constructor(inner: Transport, options: TracedOptions) {
    super(inner, (message) => message);
    this.#options = options;
    inner.onmessage = (message, extra) => this.#received(message, extra);
    // The handler OutgoingWire installed (a close handler set before, then this wire's own) still runs.
    const chained = inner.onclose;
    inner.onclose = () => {
      this.#closed();
      chained?.();
    };
  }

  override setProtocolVersion(version: string): void {
    this.#version = version;
    super.setProtocolVersion(version);
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.#answered(message);
    return super.send(message, options);
  }

  #received(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const request = message as { id?: string | number | null; method?: unknown; params?: Record<string, unknown> };
    if (typeof request.method !== 'string') return this.onmessage?.(message, extra);
    if (request.id === undefined || request.id === null) {
      if (request.method === 'notifications/cancelled') this.#cancelled(request.params?.requestId);
      return this.onmessage?.(message, extra);
    }
    const { params = {} } = request;
    const { known, redact } = this.#options;
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const headers = extra?.request?.headers;
    // A revision the SDK classified the request as is one it knows; a stated one counts when the SDK supports it.
    const classified = extra?.classification?.revision;
    const stated = text(meta[PROTOCOL_VERSION_META]) ?? headers?.get('mcp-protocol-version') ?? undefined;
    const version = classified ?? (stated === undefined ? this.#version : knownVersion(stated));
    const method = MCP_METHODS.has(request.method) ? request.method : OTHER;
    const name = text(params.name);
    const target =
      method === 'tools/call'
        ? nameIf(name, known.tool)
        : method === 'prompts/get'
          ? nameIf(name, known.prompt)
          : undefined;
    const attributes = cleaned(redact, {
      [ATTR.mcpMethod]: method,
      [ATTR.toolName]: method === 'tools/call' ? target : undefined,
      [ATTR.promptName]: method === 'prompts/get' ? target : undefined,
      [ATTR.operationName]: method === 'tools/call' ? 'execute_tool' : undefined,
      [ATTR.mcpProtocolVersion]: version,
      [ATTR.networkTransport]: this.#options.network,
      [ATTR.networkProtocol]: this.#options.network === 'tcp' ? 'http' : undefined,
    });
    const { argumentsOf } = this.#options;
    const scope = this.#options.calls.startRequest(
      target ? `${method} ${attributes[ATTR.toolName] ?? attributes[ATTR.promptName]}` : method,
      {
        ...attributes,
        ...cleaned(redact, {
          [ATTR.requestId]: String(request.id).length > MAX_ATTRIBUTE_CHARS ? OTHER : String(request.id),
          [ATTR.mcpSessionId]: this.sessionId,
          [ATTR.mcpResourceUri]: method === 'resources/read' ? nameIf(text(params.uri), known.resource) : undefined,
        }),
        [ATTR.toolArguments]: method === 'tools/call' && argumentsOf ? argumentsOf(params.arguments) : undefined,
      },
      parentOf(meta, headers),
    );
    if (method === 'initialize') this.#sessionStarted ??= performance.now();
    this.#open.set(request.id, { scope, started: performance.now(), attributes });
    this.#options.calls.within(scope, () => this.onmessage?.(message, extra));
  }

  #answered(message: JSONRPCMessage): void {
    const response = message as {
      id?: string | number;
      method?: unknown;
      result?: Record<string, unknown>;
      error?: { code?: unknown };
    };
    // A request of the server's own (elicitation/create) has a method; its ids are not the client's.
    if (response.method !== undefined || response.id === undefined) return;
    const open = this.#open.get(response.id);
    if (!open) return;
    const code = response.error ? String(response.error.code) : undefined;
    const answered = text(response.result?.protocolVersion);
    if (answered !== undefined && open.attributes[ATTR.mcpMethod] === 'initialize') {
      // The server's own answer: a version it supports.
      this.#version = answered;
      open.attributes[ATTR.mcpProtocolVersion] = answered;
    }
    this.#end(response.id, code ?? (response.result?.isError === true ? TOOL_ERROR : undefined), code);
  }

  /** A cancelled request gets no response: its span ends here. */
  #cancelled(id: unknown): void {
    if (typeof id === 'string' || typeof id === 'number') this.#end(id, 'cancelled');
  }

  #closed(): void {
    for (const id of [...this.#open.keys()]) this.#end(id, 'connection_closed');
    if (this.#sessionStarted === undefined) return;
    const { network } = this.#options;
    this.#options.instruments.sessionDuration.record(
      (performance.now() - this.#sessionStarted) / 1000,
      defined({
        [ATTR.mcpProtocolVersion]: this.#version,
        [ATTR.networkTransport]: network,
        [ATTR.networkProtocol]: network === 'tcp' ? 'http' : undefined,
      }),
    );
    this.#sessionStarted = undefined;
  }

  #end(id: string | number, errorType: string | undefined, rpcStatus?: string): void {
    const open = this.#open.get(id);
    if (!open) return;
    this.#open.delete(id);
    const { span } = open.scope;
    const outcome = { [ATTR.errorType]: errorType, [ATTR.rpcStatus]: rpcStatus };
    span.setAttributes(
      defined({ ...open.attributes, [ATTR.mcpSessionId]: this.sessionId, [ATTR.rpcStatus]: rpcStatus }),
    );
    // The JSON-RPC error's message may quote what the client sent: only its code is recorded.
    endWith(span, errorType, rpcStatus ? `JSON-RPC error ${rpcStatus}` : undefined);
    this.#options.instruments.operationDuration.record(
      (performance.now() - open.started) / 1000,
      defined({ ...open.attributes, ...outcome }),
    );
  }
}

/** The client's trace context: from the request's `_meta` when it carries one, else from the HTTP headers. */
function parentOf(meta: Record<string, unknown>, headers: Headers | undefined): Context {
  if (typeof meta.traceparent === 'string') return propagator.extract(ROOT_CONTEXT, meta, META_GETTER);
  if (headers?.has('traceparent')) return propagator.extract(ROOT_CONTEXT, headers, HEADERS_GETTER);
  return ROOT_CONTEXT;
}

const META_GETTER: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => text(carrier[key]),
};

const HEADERS_GETTER: TextMapGetter<Headers> = {
  keys: (carrier) => [...carrier.keys()],
  get: (carrier, key) => carrier.get(key) ?? undefined,
};

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The name when the server knows it, else OTHER; undefined when there is none. */
const nameIf = (name: string | undefined, knows: (name: string) => boolean) =>
  name === undefined ? undefined : knows(name) ? name : OTHER;

const knownVersion = (version: string) => (SUPPORTED_PROTOCOL_VERSIONS.includes(version) ? version : OTHER);

/** The first MAX_ATTRIBUTE_CHARS characters: a redacted value may be longer than what went in. */
const cut = (value: string) => (value.length > MAX_ATTRIBUTE_CHARS ? value.slice(0, MAX_ATTRIBUTE_CHARS) : value);

/**
 * Every value through the egress redactor, then cut to MAX_ATTRIBUTE_CHARS: a known name is short and secret-free,
 * but a configured secret that is also a tool's name or a request id must not leave by telemetry either.
 */
function cleaned(
  redact: (text: string) => string,
  attributes: Record<string, string | undefined>,
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(attributes))
    out[key] = value === undefined || value === OTHER ? value : cut(redact(value));
  return out;
}
