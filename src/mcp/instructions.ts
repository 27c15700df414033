import { notOfferedWords } from '../catalogue/not-offered.js';
import { SERVICE_NAMES } from '../catalogue/types.js';
import type { ToolFacts, ToolPolicy } from './tool-policy.js';

export interface InstructionFacts {
  /** The tools this server lists. */
  tools: readonly (ToolFacts & { destructive: boolean })[];
  policy: ToolPolicy;
  confirmDestructive: boolean;
  sandbox: boolean;
}

/** The server's MCP instructions, from what is enabled: they never name a tool the model cannot see. */
export function serverInstructions({ tools, policy, confirmDestructive, sandbox }: InstructionFacts): string {
  const serviceIds = [...new Set(tools.flatMap((t) => t.services))];
  const services = serviceIds.map((s) => SERVICE_NAMES[s]);
  const destructive = tools.filter((t) => t.destructive).map((t) => t.name);
  const lines = [
    `Tools for the ${listed(services)} ${services.length === 1 ? 'service' : 'services'} of a platform behind one API gateway.`,
    "Arguments are checked before anything is sent; a failed call returns isError with the field and rule, or the upstream's code and message.",
  ];
  const lacking = notOfferedWords(serviceIds);
  if (lacking) lines.push(lacking);
  if (tools.some((t) => !t.readOnly))
    lines.push(
      'Tools that change something take dryRun: true, which returns the request they would send (signature redacted) ' +
        'without sending it or checking anything upstream.',
    );
  if (destructive.length > 0) {
    lines.push(
      confirmDestructive
        ? `${listed(destructive)} ${destructive.length === 1 ? 'destroys' : 'destroy'} things: each call waits for the user's confirmation (a form, or confirm set to the id once the user agreed).`
        : `${listed(destructive)} ${destructive.length === 1 ? 'destroys' : 'destroy'} things and ${destructive.length === 1 ? 'runs' : 'run'} at once on this server: ask the user first.`,
    );
  }
  if (policy.readOnly) lines.push('This server is read-only: tools that change something are not offered.');
  if (sandbox)
    lines.push(
      'SANDBOX MODE: every service is the embedded simulator with demo data, not the real platform. Results are simulated.',
    );
  return lines.join('\n');
}

/** a; a and b; a, b and c. */
const listed = (items: readonly string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
