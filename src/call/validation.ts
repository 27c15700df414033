import type { z } from 'zod';
import { invalidArguments, type CallFailure } from '../failures.js';

/** Zod issues -> the refusal whose "field: rule" lines an agent can fix its call from. */
export function refusal(issues: readonly z.core.$ZodIssue[]): CallFailure {
  return invalidArguments(
    issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'arguments'}: ${describeIssue(issue)}`),
  );
}

function describeIssue(issue: z.core.$ZodIssue): string {
  // A missing field fails as a wrong type or value; say that it is required (needs safeParse's reportInput).
  // null counts as missing: an optional argument may be null (it means "not given"), a required one may not.
  const missing = 'input' in issue && (issue.input === undefined || issue.input === null);
  if (missing && (issue.code === 'invalid_type' || issue.code === 'invalid_value'))
    return `is required (${issue.message})`;
  switch (issue.code) {
    case 'too_big':
      return `${issue.message} (maximum ${String(issue.maximum)}${issue.inclusive === false ? ', exclusive' : ''})`;
    case 'too_small':
      return `${issue.message} (minimum ${String(issue.minimum)}${issue.inclusive === false ? ', exclusive' : ''})`;
    case 'unrecognized_keys':
      return `unknown argument(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    default:
      return issue.message;
  }
}
