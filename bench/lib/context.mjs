// What a tools/list costs a model's context. Shared by bench/context-cost.mjs and documented in BENCHMARKS.md;
// test/mcp/context-budget.test.ts computes the same projection.

export const bytes = (value) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');

/** The part of a tool definition that hosts put in front of the model. outputSchema and _meta are left out. */
const modelVisible = ({ name, title, description, inputSchema, annotations }) => ({
  name,
  title,
  description,
  inputSchema,
  annotations,
});

/** Sum of the bytes of every `description` string inside a JSON Schema (argument documentation). */
function schemaDescriptionBytes(node) {
  if (Array.isArray(node)) return node.reduce((a, n) => a + schemaDescriptionBytes(n), 0);
  if (typeof node !== 'object' || node === null) return 0;
  let total = 0;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' && typeof value === 'string') total += bytes(value);
    else total += schemaDescriptionBytes(value);
  }
  return total;
}

export function contextCost(tools) {
  const perTool = tools.map((t) => {
    const visible = modelVisible(t);
    return {
      name: t.name,
      visibleBytes: bytes(visible),
      descriptionBytes: bytes(t.description ?? ''),
      inputSchemaBytes: bytes(t.inputSchema ?? {}),
      argumentDescriptionBytes: schemaDescriptionBytes(t.inputSchema ?? {}),
      outputSchemaBytes: t.outputSchema ? bytes(t.outputSchema) : 0,
      fullBytes: bytes(t),
    };
  });
  return {
    tools: tools.length,
    listResultBytes: bytes({ tools }),
    modelVisibleBytes: bytes(tools.map(modelVisible)),
    perTool,
  };
}

export const tokens = (n) => Math.round(n / 4);
