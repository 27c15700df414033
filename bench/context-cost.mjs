// Context cost: the bytes of the tools/list result of dist/cli.js, and of the part a model sees (name, title,
// description, inputSchema, annotations), in total and per tool; tokens estimated at 4 bytes each.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { contextCost, tokens, bytes } from './lib/context.mjs';
import { ROOT, isMain, saveJson } from './lib/results.mjs';
import { CLI, benchEnv, ensureDistCopy } from './lib/servers.mjs';
import { table } from './lib/stats.mjs';

// The budget is for the fifteen operation tools (test/mcp/context-budget.test.ts enforces it, and the ceiling of all
// sixteen); the workflow tool translate_and_summarize comes on top.
export { OPERATIONS_BUDGET_BYTES as BUDGET_BYTES } from './lib/context-budget.mjs';
import { OPERATIONS_BUDGET_BYTES as BUDGET_BYTES } from './lib/context-budget.mjs';
const WORKFLOW_TOOLS = new Set(['translate_and_summarize']);

export async function run() {
  await ensureDistCopy();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    cwd: ROOT,
    env: benchEnv(),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const instructions = client.getInstructions() ?? '';
  await client.close();

  const cost = contextCost(tools);
  const operations = contextCost(tools.filter((t) => !WORKFLOW_TOOLS.has(t.name)));
  const json = {
    budgetBytes: BUDGET_BYTES,
    instructionsBytes: bytes(instructions),
    operationTools: operations.tools,
    operationsModelVisibleBytes: operations.modelVisibleBytes,
    ...cost,
  };
  const sorted = [...cost.perTool].sort((a, b) => b.visibleBytes - a.visibleBytes);
  const markdown = [
    '### Context cost of tools/list',
    '',
    table(
      ['what', 'bytes', '≈ tokens'],
      [
        [
          `tools/list result (${cost.tools} tools, with outputSchema)`,
          cost.listResultBytes,
          tokens(cost.listResultBytes),
        ],
        [`model-visible part, all ${cost.tools} tools`, cost.modelVisibleBytes, tokens(cost.modelVisibleBytes)],
        [
          `model-visible part, the ${operations.tools} operation tools (budget ${BUDGET_BYTES})`,
          operations.modelVisibleBytes,
          tokens(operations.modelVisibleBytes),
        ],
        ['server instructions (initialize)', bytes(instructions), tokens(bytes(instructions))],
      ],
    ),
    '',
    table(
      ['tool', 'visible bytes', 'description', 'inputSchema', 'of which argument descriptions', 'outputSchema'],
      sorted.map((t) => [
        t.name,
        t.visibleBytes,
        t.descriptionBytes,
        t.inputSchemaBytes,
        t.argumentDescriptionBytes,
        t.outputSchemaBytes,
      ]),
    ),
  ].join('\n');
  return { name: 'context-cost', json, markdown };
}

if (isMain(import.meta.url)) {
  const result = await run();
  await saveJson(result.name, result.json);
  console.log(result.markdown);
}
