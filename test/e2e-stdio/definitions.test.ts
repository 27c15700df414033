import { expect, it } from 'vitest';
import { toolDefinitions } from '../../src/mcp/tool-definitions.js';
import { spawnServer } from '../helpers/spawn-server.js';

// The bundle lists definitions computed at build time (scripts/build-plugins.mjs); they must be exactly what the
// source computes, so that the schema snapshots and invariant tests (run on the source) speak for the bundle.
it('the built server lists exactly the tool definitions the source computes', async () => {
  const server = await spawnServer({});
  try {
    expect(server.tools).toEqual(JSON.parse(JSON.stringify(toolDefinitions())));
  } finally {
    await server.close();
  }
});
