/**
 * Portability of the published input schemas. The tools, as an MCP client lists them from the real server, go through
 * the MCP tool conversion of three client libraries (development dependencies), wired the way their users wire them,
 * and the request each library would send to its model API is read off a local capture server. Every tool must arrive
 * with every argument and every constraint, except the rejections listed with their reason in docs/tools.md's "Input
 * schemas in client libraries" table, which this test reads: the list is kept in that one place.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Agent, OpenAIProvider, Runner, setSensitiveDataLoggingEnabled, type MCPServer } from '@openai/agents';
import { GoogleGenAI, mcpToTool, type Schema } from '@google/genai';
import Anthropic from '@anthropic-ai/sdk';
import { mcpTools, type MCPCallToolResultLike } from '@anthropic-ai/sdk/helpers/beta/mcp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { computeToolDefinitions } from '../../src/mcp/tool-definitions.js';
import { connect, type Harness } from './harness.js';

type JsonSchema = Record<string, unknown>;
type ConverterId = (typeof CONVERTERS)[number];

const CONVERTERS = ['openai-strict', 'gemini-mcp', 'gemini-schema', 'anthropic'] as const;

/** Keywords a converter drops by design (said in docs/tools.md), so not reported as lost constraints. */
const DROPPED_BY_DESIGN: Record<ConverterId, string[]> = {
  'openai-strict': [],
  'gemini-mcp': [],
  // Gemini's Schema has no additionalProperties: the closed objects are closed by the server's own validation only.
  'gemini-schema': ['additionalProperties'],
  anthropic: [],
};

/**
 * Every field of @google/genai's `Schema` type (the function-declaration `parameters`); the API refuses any other
 * ("Unknown name ... Cannot find field"). `satisfies` keeps this list equal to the installed type.
 */
const GEMINI_SCHEMA_FIELDS = Object.keys({
  anyOf: true,
  default: true,
  description: true,
  enum: true,
  example: true,
  format: true,
  items: true,
  maxItems: true,
  maxLength: true,
  maxProperties: true,
  maximum: true,
  minItems: true,
  minLength: true,
  minProperties: true,
  minimum: true,
  nullable: true,
  pattern: true,
  properties: true,
  propertyOrdering: true,
  required: true,
  title: true,
  type: true,
} satisfies Record<keyof Schema, true>);

/** docs/tools.md's table of expected rejections: converter, tool, reason. */
function expectedRejections(): { converter: string; tool: string; reason: string }[] {
  const page = readFileSync('docs/tools.md', 'utf8');
  const block = /<!-- portability:start -->\n([\s\S]*?)<!-- portability:end -->/.exec(page);
  if (!block) throw new Error('docs/tools.md has no portability block');
  const rows = block[1]!
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2);
  return rows.map((row) => {
    const match = /^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`[^|]*\|\s*(.*?)\s*\|$/.exec(row);
    if (!match) throw new Error(`unreadable portability row: ${row}`);
    return { converter: match[1]!, tool: match[2]!, reason: match[3]! };
  });
}

/** A local stand-in for the three model APIs: keeps the last request body per path and answers 400 (never retried). */
async function startCapture(): Promise<{ url: string; bodies: Map<string, Record<string, unknown>>; server: Server }> {
  const bodies = new Map<string, Record<string, unknown>>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      bodies.set(new URL(req.url ?? '/', 'http://capture').pathname, JSON.parse(body) as Record<string, unknown>);
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { code: 400, status: 'INVALID_ARGUMENT', type: 'invalid_request_error', message: 'captured' },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, server };
}

interface Converted {
  schema: JsonSchema;
  /** Why the converter refused the schema as it stands (OpenAI: fell back to a non-strict tool). */
  rejected?: string;
}

/** Per converter, each tool as it was sent, in the order sent. */
type Results = Record<ConverterId, [name: string, converted: Converted][]>;

/** Runs every converter on the listed tools and returns, per converter, what each tool became on the wire. */
async function convertAll(
  client: Harness['client'],
  listed: Tool[],
  capture: Awaited<ReturnType<typeof startCapture>>,
): Promise<Results> {
  const sent = (path: string) => {
    const body = capture.bodies.get(path);
    if (!body) throw new Error(`nothing was sent to ${path}`);
    return body;
  };

  // OpenAI Agents SDK: an Agent with the server in mcpServers, strict schemas asked for; the Runner's first model
  // request (Responses API) carries the function tools. The MCPServer is an adapter over the SDK client: the SDK's own
  // MCPServerStdio/StreamableHttp return client.listTools().tools unchanged too.
  const server: MCPServer = {
    name: 'svc-platform',
    cacheToolsList: false,
    connect: async () => {},
    close: async () => {},
    invalidateToolsCache: async () => {},
    listTools: async () => (await client.listTools()).tools as Awaited<ReturnType<MCPServer['listTools']>>,
    callTool: async (name, args) =>
      (await client.callTool({ name, arguments: args ?? {} })).content as Awaited<ReturnType<MCPServer['callTool']>>,
  };
  // The SDK says why it falls back to a non-strict tool in a console warning, with the error only when tool data may
  // be logged.
  const warnings: string[] = [];
  const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    warnings.push(args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(' '));
  });
  setSensitiveDataLoggingEnabled(true);
  try {
    const runner = new Runner({
      modelProvider: new OpenAIProvider({ apiKey: 'test', baseURL: capture.url }),
      tracingDisabled: true,
    });
    const agent = new Agent({
      name: 'portability',
      model: 'gpt-4.1',
      mcpServers: [server],
      mcpConfig: { convertSchemasToStrict: true },
    });
    await expect(runner.run(agent, 'hi')).rejects.toThrow(/captured/);
  } finally {
    setSensitiveDataLoggingEnabled(false);
    warn.mockRestore();
  }
  const openaiTools = sent('/responses').tools as { name: string; parameters: JsonSchema; strict: boolean }[];
  const nonStrictReasons = warnings.filter((line) => line.includes('strict mode'));
  const openai = openaiTools.map((t): [string, Converted] => [
    t.name,
    { schema: t.parameters, ...(t.strict ? {} : { rejected: nonStrictReasons.shift() ?? 'not strict' }) },
  ]);

  // Google GenAI: mcpToTool on the MCP client, in generateContent. The same tools given as `parameters` instead go
  // through the SDK's conversion to Gemini's Schema.
  const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: capture.url } });
  const model = 'gemini-2.5-flash';
  // The API version the SDK calls by default (@google/genai 3: v1; 2.x called v1beta).
  const path = `/v1/models/${model}:generateContent`;
  await expect(
    ai.models.generateContent({ model, contents: 'hi', config: { tools: [mcpToTool(client)] } }),
  ).rejects.toThrow(/captured/);
  const geminiMcp = declarations(sent(path)).map((d): [string, Converted] => [
    d.name,
    { schema: d.parametersJsonSchema! },
  ]);
  // The SDK takes JSON Schema there too (lower-case types, no $schema) and converts it; only its type says Schema.
  const functionDeclarations = listed.map((t) => ({
    name: t.name,
    description: t.description,
    parameters: t.inputSchema as unknown as Schema,
  }));
  await expect(
    ai.models.generateContent({ model, contents: 'hi', config: { tools: [{ functionDeclarations }] } }),
  ).rejects.toThrow(/captured/);
  const geminiSchema = declarations(sent(path)).map((d): [string, Converted] => {
    const unknown = unknownSchemaFields(d.parameters!);
    return [
      d.name,
      { schema: d.parameters!, ...(unknown.length ? { rejected: `Schema has no ${unknown.join(', ')}` } : {}) },
    ];
  });

  // Anthropic SDK: mcpTools from its MCP helpers, in beta.messages.create (what its toolRunner sends too). The client
  // is wrapped only for the types: the SDK client's callTool result type also has the legacy `toolResult` form.
  const anthropic = new Anthropic({ apiKey: 'test', baseURL: capture.url, maxRetries: 0 });
  const caller = {
    callTool: async (params: { name: string; arguments?: Record<string, unknown> }) =>
      (await client.callTool(params)) as MCPCallToolResultLike,
  };
  const messages = [{ role: 'user' as const, content: 'hi' }];
  await expect(
    anthropic.beta.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 16,
      messages,
      tools: mcpTools(listed, caller),
    }),
  ).rejects.toThrow(/captured/);
  const anthropicTools = sent('/v1/messages').tools as { name: string; input_schema: JsonSchema }[];

  return {
    'openai-strict': openai,
    'gemini-mcp': geminiMcp,
    'gemini-schema': geminiSchema,
    anthropic: anthropicTools.map((t): [string, Converted] => [t.name, { schema: t.input_schema }]),
  };
}

const declarations = (body: Record<string, unknown>) =>
  (
    body.tools as {
      functionDeclarations: { name: string; parameters?: JsonSchema; parametersJsonSchema?: JsonSchema }[];
    }[]
  ).flatMap((tool) => tool.functionDeclarations);

/** Fields of a converted Gemini Schema (and its subschemas) that the Schema type does not have, with their path. */
function unknownSchemaFields(node: JsonSchema, path = ''): string[] {
  const out = Object.keys(node)
    .filter((key) => !GEMINI_SCHEMA_FIELDS.includes(key))
    .map((key) => `\`${key}\` (at ${path || 'the root'})`);
  for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, JsonSchema>)) {
    out.push(...unknownSchemaFields(child, join(path, key)));
  }
  if (node.items) out.push(...unknownSchemaFields(node.items as JsonSchema, `${path}[]`));
  for (const branch of (node.anyOf ?? []) as JsonSchema[]) out.push(...unknownSchemaFields(branch, path));
  return out;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** Every argument, nested ones included (`a.b`, `a[]`), wherever the schema declares it. */
function argumentPaths(node: JsonSchema, path = ''): string[] {
  const out: string[] = [];
  for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, JsonSchema>)) {
    out.push(join(path, key), ...argumentPaths(child, join(path, key)));
  }
  if (node.items) out.push(...argumentPaths(node.items as JsonSchema, `${path}[]`));
  for (const branch of (node.anyOf ?? []) as JsonSchema[]) out.push(...argumentPaths(branch, path));
  return [...new Set(out)].sort();
}

const isNull = (node: unknown) => (node as JsonSchema | undefined)?.type === 'null';

/**
 * The constraints of the published schema that the converted one lost or changed, as `path: keyword`. A converter may
 * add (OpenAI strict: every argument required, optional ones wrapped as `anyOf: [schema, null]`; Gemini: upper-case
 * type names), not take away.
 */
function lostConstraints(original: JsonSchema, converted: JsonSchema, path = ''): string[] {
  // OpenAI strict mode's nullable wrapper around an optional argument.
  const branches = converted.anyOf as JsonSchema[] | undefined;
  if (branches?.length === 2 && isNull(branches[1]) && !(original.anyOf as JsonSchema[] | undefined)?.some(isNull)) {
    return lostConstraints(original, branches[0]!, path);
  }
  const out: string[] = [];
  const at = path || '(root)';
  for (const [key, value] of Object.entries(original)) {
    if (!(key in converted)) {
      out.push(`${at}: ${key}`);
      continue;
    }
    const other = converted[key];
    if (key === 'properties') {
      for (const [name, child] of Object.entries(value as Record<string, JsonSchema>)) {
        const counterpart = (other as Record<string, JsonSchema>)[name];
        if (counterpart) out.push(...lostConstraints(child, counterpart, join(path, name)));
      }
    } else if (key === 'items') {
      out.push(...lostConstraints(value as JsonSchema, other as JsonSchema, `${path}[]`));
    } else if (key === 'anyOf') {
      const mine = value as JsonSchema[];
      const theirs = other as JsonSchema[];
      if (mine.length !== theirs.length) out.push(`${at}: anyOf`);
      else mine.forEach((branch, i) => out.push(...lostConstraints(branch, theirs[i]!, path)));
    } else if (key === 'type') {
      if (String(other).toLowerCase() !== String(value)) out.push(`${at}: type`);
    } else if (key === 'required') {
      if (!(value as string[]).every((name) => (other as string[]).includes(name))) out.push(`${at}: required`);
    } else if (JSON.stringify(other) !== JSON.stringify(value)) {
      out.push(`${at}: ${key}`);
    }
  }
  return out;
}

describe('published input schemas through the client libraries', () => {
  const definitions = computeToolDefinitions();
  const names = Object.keys(definitions);
  let harness: Harness;
  let capture: Awaited<ReturnType<typeof startCapture>>;
  let results: Results;

  beforeAll(async () => {
    harness = await connect();
    capture = await startCapture();
    const { tools } = await harness.client.listTools();
    // What the server lists is what the source computes.
    expect(Object.fromEntries(tools.map((t) => [t.name, t.inputSchema]))).toEqual(
      Object.fromEntries(names.map((name) => [name, definitions[name]!.inputSchema])),
    );
    results = await convertAll(harness.client, tools, capture);
  });

  afterAll(async () => {
    await new Promise((resolve) => capture?.server.close(resolve));
    await harness?.close();
  });

  it('docs/tools.md lists known converters and tools, each with a reason', () => {
    for (const row of expectedRejections()) {
      expect(CONVERTERS, row.converter).toContain(row.converter);
      expect(names, row.tool).toContain(row.tool);
      expect(row.reason, `${row.converter} ${row.tool}: reason`).toMatch(/\w/);
    }
  });

  it.each(CONVERTERS)('%s: sends every tool once', (id) => {
    expect(results[id].map(([name]) => name)).toEqual(names);
  });

  it.each(CONVERTERS)('%s: rejects exactly the tools listed in docs/tools.md', (id) => {
    const rejected = results[id].filter(([, c]) => c.rejected);
    const why = rejected.map(([name, c]) => `${name}: ${c.rejected}`).join('\n');
    const listed = expectedRejections()
      .filter((r) => r.converter === id)
      .map((r) => r.tool);
    expect(rejected.map(([name]) => name).sort(), `rejected:\n${why}`).toEqual(listed.sort());
  });

  it.each(CONVERTERS)('%s: keeps every argument, and every constraint of the tools it accepts', (id) => {
    for (const [name, converted] of results[id]) {
      const original = definitions[name]!.inputSchema as JsonSchema;
      expect(argumentPaths(converted.schema), `${name}: arguments`).toEqual(argumentPaths(original));
      if (converted.rejected) continue;
      const lost = lostConstraints(original, converted.schema).filter(
        (line) => !DROPPED_BY_DESIGN[id].includes(line.slice(line.lastIndexOf(' ') + 1)),
      );
      expect(lost, `${name}: constraints lost`).toEqual([]);
    }
  });
});
