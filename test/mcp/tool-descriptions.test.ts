/**
 * What an agent reads in tools/list (issue 18): the words must be true for the server it talks to, and say what the
 * agent needs where it needs it.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connect } from './harness.js';

async function listTools(env: Record<string, string> = {}): Promise<Tool[]> {
  const h = await connect({ env });
  try {
    return (await h.client.listTools()).tools;
  } finally {
    await h.close();
  }
}

const regionOf = (tools: Tool[], name: string) =>
  (tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, { description?: string }>).region;

describe('the streaming Region default (E1, E2)', () => {
  it.each([
    [{}, 'KR'],
    [{ SVC_STREAMING_REGION: 'JPN' }, 'JPN'],
    [{ SVC_STREAMING_REGION: 'sgn' }, 'SGN'],
  ])('with %j, region says the default the server applies (%s), not the name of a variable', async (env, region) => {
    const tools = await listTools(env);
    for (const name of ['streaming_list_config_groups', 'streaming_list_server_images']) {
      expect(regionOf(tools, name)?.description, name).toBe(`Default: ${region}`);
    }
    expect(JSON.stringify(tools)).not.toContain('SVC_STREAMING_REGION');
  });
});

describe('values no tool of this server can read (E4, E13)', () => {
  const descriptionOf = async (name: string) => (await listTools()).find((t) => t.name === name)!.description!;

  it('E4 says it edits options and does not run the job, and that nrn, scriptPath and logPath must come from the user', async () => {
    const text = await descriptionOf('dataflow_update_job_execution_options');
    expect(text).toMatch(/execution options/);
    expect(text).toMatch(/does not run the job/);
    for (const field of ['nrn', 'scriptPath', 'logPath']) expect(text).toContain(field);
    expect(text).toMatch(/no tool here reads/);
    expect(text).toMatch(/ask the user, never guess/);
  });

  it('E13 says the schema is replaced whole, indexes only added, and that the current schema must come from the user', async () => {
    const text = await descriptionOf('search_update_schema');
    expect(text).toMatch(/whole schema/);
    expect(text).toMatch(/indexes can only be added/);
    expect(text).toMatch(/No tool here reads the current schema/);
    expect(text).toMatch(/ask the user, never guess/);
  });
});
