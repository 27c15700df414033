import type { ServiceId } from '../catalogue/types.js';

/**
 * Which tools a server lists and runs: the operator's choice at start-up (read-only mode, tool and service
 * filters), possibly narrowed for one HTTP client. A narrowing can only take tools away.
 */
export interface ToolPolicy {
  readOnly: boolean;
  /** Only these tools, when set. */
  tools?: ReadonlySet<string>;
  /** Only tools whose every service is among these, when set. */
  services?: ReadonlySet<ServiceId>;
}

/** What the policy needs to know of a tool. */
export interface ToolFacts {
  name: string;
  readOnly: boolean;
  /** The services a call reaches (the workflow tool reaches two). */
  services: readonly ServiceId[];
}

/** What a client asks for over HTTP (X-MCP-Read-Only, X-MCP-Tools). */
export interface Narrowing {
  readOnly?: boolean;
  tools?: readonly string[];
}

/** Why a tool is not enabled, in words for an error message; undefined when it is enabled. */
export function whyDisabled(policy: ToolPolicy, tool: ToolFacts): string | undefined {
  if (policy.readOnly && !tool.readOnly) return 'the server runs in read-only mode';
  if (policy.tools && !policy.tools.has(tool.name)) return 'it is not among the enabled tools';
  const missing = policy.services ? tool.services.filter((s) => !policy.services!.has(s)) : [];
  if (missing.length > 0) return `its service ${missing.join(' and ')} is not enabled`;
  return undefined;
}

export const isEnabled = (policy: ToolPolicy, tool: ToolFacts) => whyDisabled(policy, tool) === undefined;

/** The policy narrowed by a client: read-only can only be turned on, tools only intersected. */
export function narrow(policy: ToolPolicy, narrowing: Narrowing | undefined): ToolPolicy {
  if (!narrowing) return policy;
  const readOnly = policy.readOnly || narrowing.readOnly === true;
  let tools = policy.tools;
  if (narrowing.tools) {
    const asked = new Set(narrowing.tools);
    tools = new Set(tools ? [...tools].filter((t) => asked.has(t)) : asked);
  }
  return { ...policy, readOnly, tools };
}
