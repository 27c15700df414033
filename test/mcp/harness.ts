import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { Narrowing } from '../../src/mcp/tool-policy.js';
import { Agent } from 'undici';
import { upstreamOf } from '../../src/upstream/http.js';
import { parseCommand } from '../../src/config/index.js';
import { sandboxConfig, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createServerFactory } from '../../src/server.js';
import { OutgoingWire, toLegacyWire } from '../../src/outgoing-wire.js';

export interface Harness {
  client: Client;
  sandbox: Sandbox;
  /** Log lines the server wrote (JSON tool_call records). */
  logs: string[];
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Command-line flags and environment of the server (e.g. ['--read-only']). */
  argv?: readonly string[];
  env?: Readonly<Record<string, string>>;
  /** How one client narrows its tools (as the HTTP headers do). */
  narrowing?: Narrowing;
  /** The client declares forms but answers elicitation/create with -32601 (no handler), as some hosts do. */
  formsDeclaredOnly?: boolean;
  /** The client shows confirmation forms: each elicitation request is answered by this function. */
  elicit?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
}

/** A server made by createServerFactory on the sandbox, and an SDK Client connected to it in-process. */
export async function connect(options: ConnectOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox();
  const command = parseCommand(options.argv ?? [], options.env ?? {});
  if (command.kind !== 'serve') throw new Error('expected a serve command');
  const dispatcher = new Agent();
  const logs: string[] = [];
  const factory = createServerFactory(sandboxConfig(command.config, sandbox), {
    upstream: upstreamOf(dispatcher),
    now: Date.now,
    randomId: randomUUID,
    random: Math.random,
    log: (line) => logs.push(line),
  });
  const server = factory({ narrowing: options.narrowing });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client(
    { name: 'mcp-test', version: '0.0.0' },
    options.elicit || options.formsDeclaredOnly ? { capabilities: { elicitation: { form: {} } } } : undefined,
  );
  if (options.elicit) client.setRequestHandler(ElicitRequestSchema, (request) => options.elicit!(request));
  // As every 2025 transport of the server does: answers in the 2025 spelling.
  await server.connect(new OutgoingWire(serverTransport, toLegacyWire));
  await client.connect(clientTransport);
  return {
    client,
    sandbox,
    logs,
    async close() {
      await client.close();
      await server.close();
      await dispatcher.close();
      await sandbox.close();
    },
  };
}

/** The JSON document of a resource read. */
export async function readJson(client: Client, uri: string): Promise<Record<string, unknown>> {
  const result = await client.readResource({ uri });
  const content = result.contents[0] as { uri: string; mimeType?: string; text?: string };
  if (content.mimeType !== 'application/json' || content.text === undefined) throw new Error(`${uri} is not JSON text`);
  return JSON.parse(content.text) as Record<string, unknown>;
}
