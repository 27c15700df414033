/**
 * Issue 33, point 6: valid JSON nested thousands of levels deep, through the built server against a recording
 * upstream. It ended as `internal error: Maximum call stack size exceeded`; now it is refused as JSON nested deeper
 * than the server reads, and for the six writing tools the error says that the upstream accepted the request.
 */
import { describe, expect, it } from 'vitest';
import { recordedStdio } from '../../helpers/recorded-stdio.js';
import { MAX_NESTING } from '../../../src/upstream/sliced-json.js';
import { textOf } from '../../helpers/spawn-server.js';
import { VALID } from '../../helpers/valid-args.js';

const recorded = recordedStdio();

/** E4, E6, E8, E11, E13, E15. */
const WRITES = [
  'dataflow_update_job_execution_options',
  'apigateway_create_method_response',
  'datacatalog_run_scanner',
  'recommendation_delete_service',
  'search_update_schema',
  'kms_migrate_key',
];

const nested = (depth: number) => `{"data":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

describe('an answer nested deeper than the server reads', () => {
  it.each([5_000, 100_000])(
    'is refused by name at %s levels, for every writing tool with the upstream accepting',
    async (depth) => {
      for (const tool of WRITES) {
        recorded.upstream.reply({ headers: { 'content-type': 'application/json' }, body: nested(depth) });
        const result = await recorded.server.call(tool, VALID[tool]!);
        const text = textOf(result);
        expect(result.isError, text).toBe(true);
        expect(text).toContain('[malformed_response]');
        expect(text).toContain(`nested more than ${MAX_NESTING} levels deep`);
        expect(text).toContain('The upstream accepted the request (HTTP 200)');
        expect(text).not.toMatch(/call stack|internal error/i);
      }
      expect(recorded.upstream.requests).toHaveLength(WRITES.length);
    },
  );

  it('is refused for a reading tool without a word of a change, and the server serves on', async () => {
    recorded.upstream.reply({ headers: { 'content-type': 'application/json' }, body: nested(5_000) });
    const text = textOf(await recorded.server.call('apigateway_list_products', {}));
    expect(text).toContain('[malformed_response]');
    expect(text).not.toContain('accepted');
    recorded.upstream.reply({ body: { productPage: { content: [] } } });
    const result = await recorded.server.call('apigateway_list_products', {});
    expect(result.isError, textOf(result)).toBeFalsy();
  });

  it(`passes as deep as ${MAX_NESTING} levels, whole`, async () => {
    const deep = `${'['.repeat(MAX_NESTING - 1)}${']'.repeat(MAX_NESTING - 1)}`;
    recorded.upstream.reply({
      headers: { 'content-type': 'application/json' },
      body: `{"productPage":{"content":[]},"data":${deep}}`,
    });
    const result = await recorded.server.call('apigateway_list_products', {});
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(JSON.stringify((result.structuredContent as { data: unknown }).data)).toBe(deep);
  });
});
