import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Server, CompleteResult } from '@modelcontextprotocol/server';

/** The values a partly typed argument can take; `context.arguments` holds the arguments already chosen. */
export type Completer = (typed: string, context?: { arguments?: Record<string, string> }) => string[];

/** The completers of one prompt or one resource template, by argument (or template variable) name. */
export type Completers = Readonly<Record<string, Completer>>;

export interface CompletionSources {
  /** By prompt name: every prompt listed, even one without a completable argument. */
  prompts: ReadonlyMap<string, Completers>;
  /** By URI template, as listed. */
  templates: ReadonlyMap<string, Completers>;
  /** The fixed resource URIs: they have nothing to complete. */
  resources: ReadonlySet<string>;
}

/** MCP caps one answer at 100 values; `total` and `hasMore` tell the client there are more. */
const MAX_VALUES = 100;

/** completion/complete for the prompts' arguments and the resource templates' variables. */
export function registerCompletion(server: Server, sources: CompletionSources): void {
  server.registerCapabilities({ completions: {} });
  server.setRequestHandler('completion/complete', (request): CompleteResult => {
    const { ref, argument, context } = request.params;
    let completers: Completers | undefined;
    if (ref.type === 'ref/prompt') {
      completers = sources.prompts.get(ref.name);
      if (!completers) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${ref.name} not found`);
    } else {
      completers = sources.templates.get(ref.uri);
      if (!completers && !sources.resources.has(ref.uri)) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource template ${ref.uri} not found`);
      }
    }
    const complete = completers && Object.hasOwn(completers, argument.name) ? completers[argument.name] : undefined;
    const values = complete ? complete(argument.value, context) : [];
    return {
      completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES },
    };
  });
}
