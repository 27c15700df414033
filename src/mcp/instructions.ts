import { IRREVERSIBLE, REVERSIBLE_BY_HAND } from '../catalogue/irreversible.js';
import { notOfferedWords } from '../catalogue/not-offered.js';
import { createCompletion } from '../catalogue/textgen.js';
import { translateText } from '../catalogue/translation.js';
import { SERVICE_NAMES } from '../catalogue/types.js';
import type { ToolFacts, ToolPolicy } from './tool-policy.js';
import { SANDBOX_FAKES } from './sandbox-words.js';
import { WORKFLOW_TOOL_NAME } from './workflow-schema.js';

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
  const names = new Set(tools.map((t) => t.name));
  const irreversible = Object.entries(IRREVERSIBLE).filter(([tool]) => names.has(tool));
  if (irreversible.length > 0) {
    const byHand = Object.entries(REVERSIBLE_BY_HAND).filter(([tool]) => names.has(tool));
    lines.push(
      `No tool here undoes ${listed(
        irreversible.map(([, what]) => what),
        'or',
      )}: asked to revert such changes, say so without calling a tool.` +
        byHand.map(([, how]) => ` ${how.charAt(0).toUpperCase()}${how.slice(1)}.`).join(''),
    );
  }
  if (names.has(WORKFLOW_TOOL_NAME) && names.has(translateText.name) && names.has(createCompletion.name))
    lines.push(
      `${WORKFLOW_TOOL_NAME} is a tool and a prompt: the tool does the whole job in one call (it splits the text and ` +
        `reports progress); the prompt, which a user picks, has you make the calls yourself, with ${translateText.name} ` +
        `and ${createCompletion.name}.`,
    );
  if (policy.readOnly) lines.push('This server is read-only: tools that change something are not offered.');
  if (sandbox) lines.push(sandboxWords(new Set(tools.flatMap((t) => t.services))));
  return lines.join('\n');
}

/** What the sandbox fakes, for the services enabled: an agent must not take its answers for the platform's. */
function sandboxWords(services: ReadonlySet<string>): string {
  const faked = Object.entries(SANDBOX_FAKES)
    .filter(([service]) => services.has(service))
    .map(([, fake]) => fake.words);
  return (
    'SANDBOX MODE: every service is the embedded simulator with demo data, not the real platform. Results are simulated' +
    (faked.length > 0 ? `: ${faked.join('; ')}. Such answers carry a simulated member that says what was faked.` : '.')
  );
}

/** a; a and b; a, b and c (or another word). */
const listed = (items: readonly string[], word = 'and') =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1)!}`;
