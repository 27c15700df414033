import { SERVER_INFO_META_KEY, Server, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { CATALOGUE } from './catalogue/catalogue.js';
import { ConfigError, SETTING_WORDS, flagName, withProfile, type Config } from './config/index.js';
import { Redactor } from './util/redact.js';
import { Calls } from './call/admission.js';
import type { ClientSettings, ExchangeDeps, Upstream } from './upstream/index.js';
import type { CallFrame } from './call/pipeline.js';
import { catalogueTool } from './mcp/catalogue-tools.js';
import { SpentStates, confirmationCodec } from './mcp/confirmation-state.js';
import { compileOperation, type CompiledOperation } from './catalogue/compile.js';
import { createCompletion } from './catalogue/textgen.js';
import { translateText } from './catalogue/translation.js';
import { registerCompletion } from './mcp/completion.js';
import { registerPrompts } from './mcp/prompts.js';
import { registerResources } from './mcp/resources.js';
import { appViews, declaringView, type ReadViewFile } from './mcp/app-views/app-views.js';
import { sharedLazyValidator } from './mcp/schema-validator.js';
import { TOOL_DEFINITIONS } from './mcp/tool-definitions.js';
import { serverInstructions } from './mcp/instructions.js';
import { isEnabled, narrow, type Narrowing, type ToolPolicy } from './mcp/tool-policy.js';
import type { ToolHandler } from './mcp/tool-handler.js';
import { knownNames } from './mcp/known-names.js';
import { registerTools, type ToolView } from './mcp/tool-registry.js';
import { WORKFLOW_TOOL_NAME, translateAndSummarizeTool } from './mcp/workflow-tool.js';
import { OutgoingWire, redactMessage } from './outgoing-wire.js';
import { SERVER_DESCRIPTION, SERVER_NAME, SERVER_VERSION } from './version.js';
import { serverIcons } from './mcp/icons.js';
import type { KnownNames, Telemetry } from './telemetry/telemetry.js';

export { SERVER_VERSION } from './version.js';

export interface ServerDeps {
  upstream: Upstream;
  now(): number;
  randomId(): string;
  random(): number;
  /** One line to stderr (never stdout, which belongs to the stdio transport), through the egress redactor. */
  log(line: string): void;
  /**
   * Knows every configured secret: every outgoing message passes it (and the process edge passes every stderr line),
   * and each call's attempts add their signatures to it for the upstream's answer. By default one of the config's
   * secrets (for servers made without a process edge: tests, benchmarks).
   */
  redactor?: Redactor;
  /** OpenTelemetry, when the OTEL_* variables ask for it (loaded by main.ts); none: nothing is traced. */
  telemetry?: Telemetry;
  /** Reads the pages of the app views from the build's output (main.ts); none: resources/read of a view fails. */
  readViewFile?: ReadViewFile;
}

/** How one server differs from the process's defaults: an HTTP client's narrowing, and whether it may ask for forms. */
interface ServerOptions {
  narrowing?: Narrowing;
  /** Stateless 2025 HTTP: a request to the client could never be answered, so no forms are asked for. */
  stateless?: boolean;
  /** Who the server serves when it has no session (an HTTP client's address): calls take turns by client. */
  client?: string;
}

/** Lists and reference data do not change while the process runs; a client may keep them a few minutes. */
const CACHE_HINT = { ttlMs: 5 * 60_000, cacheScope: 'private' } as const;

/**
 * Makes a server per session (or per stateless request); `calls` are the tool calls of all of them, which a
 * transport stops at shutdown (a factory of test servers may have none).
 */
export type ServerFactory = ((options?: ServerOptions) => Server) & { calls?: Calls };

/**
 * Everything a server needs that does not change between sessions, computed once. Throws ConfigError when the
 * operator's filters leave no tool at all.
 */
export function createServerFactory(config: Config, deps: ServerDeps): ServerFactory {
  const definition = (name: string) => {
    const found = TOOL_DEFINITIONS[name];
    if (!found) throw new Error(`no tool definition named ${name}: run \`npm run generate\``);
    return found;
  };
  const exchangeDeps: ExchangeDeps = {
    settings: clientSettings(config),
    upstream: deps.upstream,
    now: deps.now,
    requestId: deps.randomId,
    random: deps.random,
    telemetry: deps.telemetry,
  };
  const frame: CallFrame = {
    deps: exchangeDeps,
    calls: new Calls({
      maxConcurrent: config.limits.maxConcurrentCalls,
      maxQueued: config.limits.maxQueuedCalls,
    }),
    redactor: deps.redactor ?? new Redactor(config.secrets),
    maxResultBytes: config.limits.maxResultBytes,
    log: (entry) => deps.log(JSON.stringify({ event: 'tool_call', ...entry })),
    confirmDestructive: config.safety.confirmDestructive,
    ...(config.profile ? { profile: config.profile } : {}),
  };
  deps.telemetry?.observeCalls(frame.calls);
  const { telemetry } = deps;
  const network = config.transport === 'stdio' ? 'pipe' : 'tcp';

  const codec = confirmationCodec(config.safety.stateKey);
  const spent = new SpentStates(deps.now);
  const egress = (message: JSONRPCMessage) => redactMessage(frame.redactor, withSlimIdentity(message));
  // Each operation compiled once per Region it may default to (the process's, or a credential profile's): every stage
  // of every call gets its compiled form.
  const appViewPages = appViews(config.appViews, deps.readViewFile);
  const compiledFor = (defaultRegion: Config['streamingRegion']) => {
    const compiled = new Map(CATALOGUE.map((op) => [op, compileOperation(op, { defaultRegion })]));
    return <Op extends (typeof CATALOGUE)[number]>(op: Op) => compiled.get(op)! as CompiledOperation<Op>;
  };
  /** The tools as one set of platform settings makes them: the process's, or one credential profile's. */
  const viewOf = (settings: Config): ToolView => {
    const own: CallFrame =
      settings === config
        ? frame
        : {
            ...frame,
            deps: { ...exchangeDeps, settings: clientSettings(settings) },
            ...(settings.profile ? { profile: settings.profile } : {}),
          };
    const operation = compiledFor(settings.streamingRegion);
    const handlers: ToolHandler[] = [
      ...CATALOGUE.map((op) =>
        catalogueTool(operation(op), declaringView(definition(op.name), appViewPages), own, {
          defaultRegion: settings.streamingRegion,
          sandbox: settings.sandbox,
        }),
      ),
      translateAndSummarizeTool(definition(WORKFLOW_TOOL_NAME), own, {
        translate: operation(translateText),
        complete: operation(createCompletion),
        timeoutMs: settings.limits.workflowTimeoutMs,
      }),
    ];
    const { readOnly, tools, services } = settings.safety;
    const policy: ToolPolicy = {
      readOnly,
      ...(tools ? { tools: new Set(tools) } : {}),
      ...(services ? { services: new Set(services) } : {}),
    };
    if (!handlers.some((h) => isEnabled(policy, h.facts))) {
      const whose = settings.profile ? `, with the profile "${settings.profile}",` : '';
      throw new ConfigError(
        `the read-only mode, ${flagName('tools')} and ${flagName('services')}${whose} leave no tool enabled`,
      );
    }
    return { handlers, policy, ...(settings.profile ? { profile: settings.profile } : {}) };
  };
  // OAuth mode with credential profiles: each token's claim picks one (transports/oauth), and its calls run with that
  // profile's keys and filters only. Otherwise the process has one set (a profile, if one was chosen, is applied).
  const perToken = config.http.oauth && config.profiles;
  const views = new Map(
    perToken
      ? [...config.profiles!.byName.values()].map((profile) => [profile.name, viewOf(withProfile(config, profile))])
      : [[undefined, viewOf(config)]],
  );
  const processView = views.get(undefined) ?? views.values().next().value!;
  const { handlers, policy: processPolicy } = processView;
  // Every profile's tools are the same sixteen: telemetry names them by the process's.
  const toolNames = new Set(handlers.map((h) => h.facts.name));
  const { confirmDestructive } = config.safety;
  const viewFor = (profile: string | undefined): ToolView | undefined =>
    perToken ? (profile === undefined ? undefined : views.get(profile)) : processView;
  const jsonSchemaValidator = sharedLazyValidator();
  const instructionsFor = (policy: ToolPolicy) =>
    serverInstructions({
      tools: handlers
        .filter((h) => isEnabled(policy, h.facts))
        .map((h) => ({ ...h.facts, destructive: h.definition.annotations?.destructiveHint === true })),
      policy,
      confirmDestructive,
      sandbox: config.sandbox,
    });
  const processInstructions = instructionsFor(processPolicy);
  // Built once: a 2026-07-28 HTTP request builds a server, and every 2026-07-28 result carries this identity.
  const identity = {
    name: SERVER_NAME,
    title: 'Platform services',
    version: SERVER_VERSION,
    description: SERVER_DESCRIPTION,
    icons: serverIcons(),
  };

  const factory = ({ narrowing, stateless = false, client }: ServerOptions = {}) => {
    const policy = narrow(processPolicy, narrowing);
    const viewOfCaller = (profile: string | undefined) => {
      const view = viewFor(profile);
      return view && { ...view, policy: narrow(view.policy, narrowing) };
    };
    // What telemetry records by name: filled in below, read once a transport is connected.
    const named: { known?: KnownNames } = {};
    const traced = telemetry && ((transport: Transport) => telemetry.traced(transport, network, named.known!));
    // The low-level Server, not McpServer: see mcp/tool-registry.ts for why, with the figure. Prompts and resources
    // follow it, since their listings too depend on the client (they name only the tools it can see).
    const server = new FilteredServer({ egress, traced }, identity, {
      capabilities: { tools: { listChanged: false }, logging: {} },
      instructions: narrowing ? instructionsFor(policy) : processInstructions,
      jsonSchemaValidator,
      // Tampered or expired confirmation state is refused (-32602) before any handler runs.
      requestState: { verify: codec.verify },
      // Input requests go to 2026-07-28 clients only; a 2025 session gets its form by elicitation/create
      // (mcp/confirmation.ts).
      inputRequired: { legacyShim: false },
      cacheHints: {
        'tools/list': CACHE_HINT,
        'prompts/list': CACHE_HINT,
        'resources/list': CACHE_HINT,
        'resources/templates/list': CACHE_HINT,
        'resources/read': CACHE_HINT,
      },
    });
    registerTools(server, viewOfCaller, {
      confirmDestructive,
      elicitation: !stateless,
      codec,
      spent,
      client,
    });
    const enabled = (tool: string) => handlers.some((h) => h.facts.name === tool && isEnabled(policy, h.facts));
    const resources = registerResources(server, enabled, appViewPages);
    const prompts = registerPrompts(server, enabled);
    registerCompletion(server, { ...resources, prompts });
    named.known = knownNames(toolNames, { ...resources, prompts });
    return server;
  };
  return Object.assign(factory, { calls: frame.calls });
}

/**
 * A 2026-07-28 result carries the server's identity in its `_meta`; the whole of it (description, a base64 icon:
 * ~700 bytes) is for server/discover, which a client reads once. Every other result carries what identifies the
 * server: its name, title and version.
 */
function withSlimIdentity(message: JSONRPCMessage): JSONRPCMessage {
  const result = (message as { result?: Record<string, unknown> }).result;
  const meta = result?._meta as Record<string, unknown> | undefined;
  const info = meta?.[SERVER_INFO_META_KEY] as Record<string, unknown> | undefined;
  if (!result || !meta || !info || 'supportedVersions' in result) return message;
  const { name, title, version } = info;
  return {
    ...message,
    result: { ...result, _meta: { ...meta, [SERVER_INFO_META_KEY]: { name, title, version } } },
  } as JSONRPCMessage;
}

/**
 * The SDK's low-level server, whose every outgoing message passes the egress filter: whichever transport it is
 * connected to (stdio, a 2025 session, a stateless or a 2026-07-28 per-request one, which the SDK connects itself).
 * With telemetry on, the transport is traced too (inside the filter: what it sees of a response is already clean).
 */
interface Wiring {
  egress: ConstructorParameters<typeof OutgoingWire>[1];
  traced?: (transport: Transport) => Transport;
}

class FilteredServer extends Server {
  readonly #wiring: Wiring;

  constructor(wiring: Wiring, ...args: ConstructorParameters<typeof Server>) {
    super(...args);
    this.#wiring = wiring;
  }

  override connect(transport: Transport): Promise<void> {
    const { egress, traced } = this.#wiring;
    return super.connect(new OutgoingWire(traced ? traced(transport) : transport, egress));
  }
}

/** The platform client's settings, out of the server's: the client reads only its own, in its own words. */
export const clientSettings = (config: Config): ClientSettings => ({
  serviceUrls: config.serviceUrls,
  credentials: config.credentials,
  timeoutMs: config.timeoutMs,
  maxResponseBytes: config.limits.maxResponseBytes,
  proxy: config.proxy,
  words: SETTING_WORDS,
});
