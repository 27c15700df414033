import * as z from 'zod';
import type { AnyOperation } from '../catalogue/types.js';
import { decorate } from '../catalogue/compile.js';
import { CallFailure } from '../upstream/failure.js';
import { formatIssues } from './validation.js';

/**
 * The two arguments this server adds to the spec's own: `dryRun` on every tool that changes something, and
 * `confirm` on the destructive ones (E11, E15). They never reach the upstream.
 */
export const acceptsDryRun = (op: AnyOperation) => decorate(op).addedArguments.dryRun;

export interface SafetyArgs {
  dryRun: boolean;
  confirm?: string;
}

/** JSON Schema of the added arguments of an operation (empty for a read-only one). */
export function safetyProperties(op: AnyOperation): Record<string, object> {
  const properties: Record<string, object> = {};
  if (acceptsDryRun(op)) properties.dryRun = { type: 'boolean', description: 'Show the request; send nothing' };
  const confirm = decorate(op).addedArguments.confirm;
  if (confirm) properties.confirm = { type: 'string', description: `The ${confirm} again, only once the user agreed` };
  return properties;
}

const SAFETY = z.object({ dryRun: z.boolean().nullish(), confirm: z.string().nullish() });

/** Separates the added arguments from the spec's; a wrong type is refused like any other bad input. */
export function takeSafetyArgs(
  op: AnyOperation,
  raw: Record<string, unknown> | undefined,
): { safety: SafetyArgs; rest: Record<string, unknown> } {
  const rest = { ...raw };
  const taken: Record<string, unknown> = {};
  // An argument the tool does not take stays in `rest`, where the operation's schema refuses it by name.
  // Read on every call: the names come from decorate(), computed once per operation, not from the JSON Schema.
  const { dryRun, confirm } = decorate(op).addedArguments;
  for (const name of [...(dryRun ? ['dryRun'] : []), ...(confirm ? ['confirm'] : [])]) {
    if (name in rest) {
      taken[name] = rest[name];
      delete rest[name];
    }
  }
  // Most calls carry neither (every read-only tool): nothing to check.
  if (Object.keys(taken).length === 0) return { safety: { dryRun: false }, rest };
  const parsed = SAFETY.safeParse(taken);
  if (!parsed.success) throw new CallFailure('invalid_input', formatIssues(parsed.error.issues));
  return { safety: { dryRun: parsed.data.dryRun === true, confirm: parsed.data.confirm ?? undefined }, rest };
}
