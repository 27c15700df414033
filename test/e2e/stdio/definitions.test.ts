import { expect, it } from 'vitest';
import { appViews, declaringView } from '../../../src/mcp/app-views/app-views.js';
import { computeToolDefinitions } from '../../../src/mcp/tool-definitions.js';
import { spawnServer } from '../../helpers/spawn-server.js';

// The bundle must list exactly the definitions the source computes, so that the generated definitions and invariant
// tests (run on the source) speak for what ships; app views are on by default, so their declarations are listed too.
it('the built server lists exactly the tool definitions the source computes', async () => {
  const server = await spawnServer({});
  const views = appViews({ enabled: true }, undefined);
  try {
    expect(server.tools).toEqual(
      JSON.parse(JSON.stringify(Object.values(computeToolDefinitions()).map((tool) => declaringView(tool, views)))),
    );
  } finally {
    await server.close();
  }
});

it('an unknown tool is a protocol error -32602, named once', async () => {
  const server = await spawnServer({});
  try {
    const error = await server.client.callTool({ name: 'no_such_tool', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e as { code: number; message: string },
    );
    expect(error?.code).toBe(-32602);
    expect(error?.message).toBe('MCP error -32602: Unknown tool: no_such_tool');
  } finally {
    await server.close();
  }
});
