import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type InputRequiredResult,
  type Server,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { withoutConfirmationWords } from '../catalogue/confirmation-words.js';
import type { CallContext } from '../call/pipeline.js';
import { errorResult, type ToolResult } from '../call/tool-result.js';
import { nothingSent } from '../failures.js';
import { confirmerFor, inputRequestOf, type ConfirmationOptions } from './confirmation.js';
import { noteFor } from './logging.js';
import { callerOf, type Caller } from './caller.js';
import { scopeNarrowing } from './scopes.js';
import { narrow, whyDisabled, type ToolPolicy } from './tool-policy.js';
import type { ToolHandler } from './tool-handler.js';

/** The tools one caller sees: the process's, or those of the credential profile its token picked. */
export interface ToolView {
  handlers: readonly ToolHandler[];
  /** The operator's filters, narrowed by the profile's and by the client's HTTP headers. */
  policy: ToolPolicy;
  profile?: string;
}

export interface RegistryOptions extends ConfirmationOptions {
  confirmDestructive: boolean;
}

/**
 * tools/list and tools/call, on the SDK's low-level Server rather than McpServer.registerTool, for three reasons: the
 * tool set is computed per client (its narrowing) and a disabled tool answers why; our pipeline's validation names
 * the field and the rule and refuses before anything is sent (registerTool would validate first, in its own words);
 * and every 2026-07-28 HTTP request builds a server: ours takes 23.5 µs to build, McpServer with the same sixteen
 * tools 75.8 µs (`node bench/server-construction.mjs`, this machine, Node 20). Only the tools the policy enables
 * are listed; calling another is a tool error.
 */
export function registerTools(
  server: Server,
  viewOf: (profile: string | undefined) => ToolView | undefined,
  options: RegistryOptions,
): void {
  const listingOf = (view: ToolView, policy: ToolPolicy) => ({
    tools: view.handlers
      .filter((h) => whyDisabled(policy, h.facts) === undefined)
      .map((h) => (options.confirmDestructive ? h.definition : withoutConfirm(h.definition))),
  });
  // OAuth mode: each request's token narrows further (in a session too, where a later token may hold more scopes:
  // the step-up of the MCP authorization specification), and picks the credential profile when there are several.
  // A few profiles and scope sets at most: their listings are kept.
  const listings = new Map<string, ReturnType<typeof listingOf>>();
  const policyFor = (view: ToolView, caller: Caller | undefined) =>
    caller ? narrow(view.policy, scopeNarrowing(caller.scopes)) : view.policy;
  // The transport refuses a token that picks no profile (403); a view is missing only if a caller slipped past it.
  const viewFor = (caller: Caller | undefined) => {
    const view = viewOf(caller?.profile);
    if (!view) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'no credential profile for this caller');
    return view;
  };
  server.setRequestHandler('tools/list', (_request, ctx) => {
    const caller = callerOf(ctx);
    const view = viewFor(caller);
    const policy = policyFor(view, caller);
    const key = `${view.profile ?? ''}\n${policy.readOnly}\n${[...(policy.tools ?? [])].join(',')}`;
    let found = listings.get(key);
    if (!found) listings.set(key, (found = listingOf(view, policy)));
    return found;
  });
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const name = request.params.name;
    const caller = callerOf(ctx);
    const view = viewFor(caller);
    const handler = view.handlers.find((h) => h.definition.name === name);
    // A protocol error, as the MCP specification asks for an unknown tool.
    if (!handler) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const disabled = whyDisabled(policyFor(view, caller), handler.facts);
    if (disabled)
      return asResult(
        errorResult(
          `${name} failed [not_enabled]: ${nothingSent(`${name} is not enabled on this server: ${disabled}${view.profile ? ` (profile ${view.profile})` : ''}`)}`,
        ),
      );
    const outcome = await handler.call(request.params.arguments, {
      // Who takes turns for places: in OAuth mode the user, else the address the transport tells (the sessions of one
      // address share its places; stdio is one client), never the session.
      client: caller?.key ?? options.client,
      ...(caller ? { who: whoOf(caller) } : {}),
      signal: ctx.mcpReq.signal,
      note: noteFor(ctx),
      progress: progressFor(ctx),
      confirmer: confirmerFor(server, ctx, options, view.profile),
    });
    // An input request is returned as it is: the SDK sends it to the 2026-07-28 client.
    return outcome.kind === 'input' ? inputRequestOf(outcome.question) : asResult(outcome.result);
  });
}

/** Who calls, for the call's log line and spans: never the token. */
function whoOf(caller: Caller): NonNullable<CallContext['who']> {
  return {
    sub: caller.subject,
    ...(caller.client ? { client_id: caller.client } : {}),
  };
}

/** notifications/progress for the request, only when it asked for them (a progressToken in _meta). */
function progressFor(ctx: ServerContext): CallContext['progress'] {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  return async (progress, total, message) => {
    if (progressToken === undefined) return;
    try {
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress, total, message },
      });
    } catch {
      // A lost progress notification must not fail the call.
    }
  };
}

/**
 * With confirmation turned off (--no-confirm), `confirm` means nothing and is not listed, and the description does not
 * say how the user confirms.
 */
function withoutConfirm(tool: Tool): Tool {
  const properties = tool.inputSchema.properties;
  if (!properties || !('confirm' in properties)) return tool;
  const { confirm: _, ...rest } = properties;
  return {
    ...tool,
    description: tool.description === undefined ? undefined : withoutConfirmationWords(tool.description),
    inputSchema: { ...tool.inputSchema, properties: rest },
  };
}

/** The pipeline's result is an MCP tool result (text content, structured content): the same shape, typed by the SDK. */
const asResult = (result: ToolResult): CallToolResult => result as CallToolResult;
