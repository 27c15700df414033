/** The OAuth scopes: which each tool needs (from its annotations), what a request needs, and narrowing only. */
import { describe, expect, it } from 'vitest';
import { SCOPES_SUPPORTED, missingScopes, scopeNarrowing, scopeOfTool } from '../../src/mcp/scopes.js';
import { TOOL_DEFINITIONS } from '../../src/mcp/tool-definitions.js';
import { narrow } from '../../src/mcp/tool-policy.js';

const call = (name: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name } });

describe('scopes', () => {
  it('names the three scopes', () => {
    expect(SCOPES_SUPPORTED).toEqual(['svc.read', 'svc.write', 'svc.destructive']);
  });

  it('gives E11 and E15 svc.destructive, the other writes svc.write, and the read-only tools svc.read', () => {
    const byScope: Record<string, string[]> = {};
    for (const name of Object.keys(TOOL_DEFINITIONS)) (byScope[scopeOfTool(name)!] ??= []).push(name);
    expect(byScope['svc.destructive']).toEqual(['recommendation_delete_service', 'kms_migrate_key']);
    expect(byScope['svc.write']).toEqual([
      'dataflow_update_job_execution_options',
      'apigateway_create_method_response',
      'datacatalog_run_scanner',
      'search_update_schema',
    ]);
    expect(byScope['svc.read']).toContain('translate_and_summarize');
    expect(byScope['svc.read']).toHaveLength(10);
    expect(scopeOfTool('no_such_tool')).toBeUndefined();
  });

  it('says what a request lacks: tool calls by their tool, reads of resources, prompts and completion', () => {
    expect(missingScopes(call('kms_migrate_key'), ['svc.read', 'svc.write'])).toEqual(['svc.destructive']);
    expect(missingScopes(call('kms_migrate_key'), ['svc.destructive'])).toEqual([]);
    expect(missingScopes(call('search_update_schema'), ['svc.read'])).toEqual(['svc.write']);
    for (const method of ['resources/read', 'prompts/get', 'completion/complete'])
      expect(missingScopes({ jsonrpc: '2.0', id: 1, method, params: {} }, ['svc.write'])).toEqual(['svc.read']);
    for (const method of ['initialize', 'tools/list', 'resources/list', 'prompts/list', 'ping', 'server/discover'])
      expect(missingScopes({ jsonrpc: '2.0', id: 1, method }, [])).toEqual([]);
    // A batch needs all its messages' scopes, in the scopes' order; an unknown tool is the server's to answer.
    expect(missingScopes([call('kms_migrate_key'), call('search_update_schema')], [])).toEqual([
      'svc.write',
      'svc.destructive',
    ]);
    expect(missingScopes(call('no_such_tool'), [])).toEqual([]);
  });

  it('narrows the operator policy and never widens it', () => {
    const readOnlyServer = { readOnly: true, tools: new Set(['kms_migrate_key', 'bigdata_check_app_name']) };
    const policy = narrow(readOnlyServer, scopeNarrowing(['svc.read', 'svc.write', 'svc.destructive']));
    expect(policy.readOnly).toBe(true);
    expect([...policy.tools!]).toEqual(['kms_migrate_key', 'bigdata_check_app_name']);
    const reader = narrow({ readOnly: false }, scopeNarrowing(['svc.read', 'openid']));
    expect([...reader.tools!].map(scopeOfTool)).toEqual(Array(10).fill('svc.read'));
    expect([...narrow({ readOnly: false }, scopeNarrowing([])).tools!]).toEqual([]);
  });
});
