import { AsyncLocalStorage } from 'node:async_hooks';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { defined, type Instruments } from './instruments.js';
import { ATTR, SPAN } from './names.js';
import type { AttemptRequest, AttemptSpan, ConfirmationSpan, StageSpan } from './telemetry.js';

/** The request being handled: its SERVER span, the parent of what its call does. */
export interface RequestScope {
  span: Span;
  context: Context;
}

/**
 * The spans of what a request's call does, children of the request's SERVER span: the request is found by the
 * asynchronous context its handling runs in (`within`), so that the pipeline needs no span handed down to it.
 */
export class CallSpans {
  readonly #current = new AsyncLocalStorage<RequestScope>();
  readonly #tracer: Tracer;
  readonly #instruments: Instruments;

  constructor(tracer: Tracer, instruments: Instruments) {
    this.#tracer = tracer;
    this.#instruments = instruments;
  }

  /** A SERVER span for a request, under the client's context when it sent one. */
  startRequest(name: string, attributes: Record<string, string | undefined>, parent: Context): RequestScope {
    const span = this.#tracer.startSpan(name, { kind: SpanKind.SERVER, attributes: defined(attributes) }, parent);
    return { span, context: trace.setSpan(parent, span) };
  }

  /** Runs the handling of a request (and all it starts) with this request as the current one. */
  within<T>(scope: RequestScope, handle: () => T): T {
    return this.#current.run(scope, handle);
  }

  admission(): StageSpan {
    const span = this.#child(SPAN.admission, SpanKind.INTERNAL);
    return {
      end: once((failure?: string) => {
        if (failure === 'busy') this.#instruments.callsRefused.add(1, { [ATTR.refusal]: 'busy' });
        endWith(span, failure);
      }),
    };
  }

  confirmation(channel: string): ConfirmationSpan {
    const span = this.#child(SPAN.confirmation, SpanKind.INTERNAL, { [ATTR.confirmationChannel]: channel });
    return {
      end: once(({ asked, answer }: { asked: boolean; answer?: 'confirmed' | 'refused' }) => {
        const attributes = { [ATTR.confirmationChannel]: channel };
        if (asked) this.#instruments.confirmationsAsked.add(1, attributes);
        if (answer) {
          this.#instruments.confirmationsAnswered.add(1, { ...attributes, [ATTR.confirmationAnswer]: answer });
          span.setAttribute(ATTR.confirmationAnswer, answer);
        }
        span.end();
      }),
    };
  }

  attempt(request: AttemptRequest): AttemptSpan {
    const url = new URL(request.url);
    const template = `${pathPrefix(url.pathname, request.template)}${request.template}`;
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const common = {
      [ATTR.httpMethod]: request.method,
      [ATTR.serverAddress]: url.hostname,
      [ATTR.serverPort]: port,
      [ATTR.urlTemplate]: template,
    };
    const span = this.#child(`${request.method} ${template}`, SpanKind.CLIENT, {
      ...common,
      [ATTR.urlScheme]: url.protocol.slice(0, -1),
      // The path as sent, but for its path parameters (argument values): their placeholders stand in their place.
      [ATTR.urlPath]: template,
      ...(request.resendCount > 0 ? { [ATTR.resendCount]: request.resendCount } : {}),
    });
    const started = performance.now();
    return {
      end: once((status?: number, failure?: string) => {
        const errorType = status !== undefined && status >= 400 ? String(status) : failure;
        const outcome = defined({ [ATTR.httpStatus]: status, [ATTR.errorType]: errorType });
        span.setAttributes(outcome);
        this.#instruments.clientRequestDuration.record((performance.now() - started) / 1000, { ...common, ...outcome });
        endWith(span, errorType);
      }),
    };
  }

  /** The tool call of the current request ended so: `ok`, `input_required`, or its failure code. */
  callEnded(outcome: string, profile?: string): void {
    const span = this.#current.getStore()?.span;
    span?.setAttribute(ATTR.callOutcome, outcome);
    if (profile !== undefined) span?.setAttribute(ATTR.callProfile, profile);
  }

  #child(name: string, kind: SpanKind, attributes: Record<string, string | number> = {}): Span {
    const parent = this.#current.getStore()?.context ?? ROOT_CONTEXT;
    return this.#tracer.startSpan(name, { kind, attributes }, parent);
  }
}

/** Ends a span, with `error.type` and status ERROR when it failed. */
export function endWith(span: Span, errorType: string | undefined, description?: string): void {
  if (errorType !== undefined) {
    span.setAttribute(ATTR.errorType, errorType);
    span.setStatus({ code: SpanStatusCode.ERROR, ...(description ? { message: description } : {}) });
  }
  span.end();
}

/**
 * What the service URL puts before the operation's path (a proxy's prefix): as many leading segments as the path sent
 * has beyond the template's (each placeholder is one segment: its value is percent-encoded).
 */
function pathPrefix(pathname: string, template: string): string {
  const sent = pathname.split('/');
  const keep = sent.length - template.split('/').length + 1;
  return keep > 1 ? sent.slice(0, keep).join('/') : '';
}

function once<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
  let done = false;
  return (...args) => {
    if (done) return;
    done = true;
    fn(...args);
  };
}
