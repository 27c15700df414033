import { checkAppName } from '../../catalogue/bigdata.js';
import { badRequest, fail } from '../errors.js';
import { bigdataFixtures, DEFAULT_ACCOUNT_ID } from '../fixtures/bigdata.js';
import { routeOf } from '../route-of.js';
import type { Route } from '../types.js';
import { requireObject, requireString } from '../validate.js';

/**
 * E9. A malformed accountId (or a missing field) is a gateway 400; a name that breaks the naming rule is a
 * successful check that answers availableName false with the reason, as the spec describes a failed check.
 */
export function bigdataRoutes(): Route[] {
  const takenByAccount = bigdataFixtures();
  return [
    routeOf(checkAppName, (req) => {
      const input = requireObject(req.body, 'request body');
      const accountId = requireString(input, 'accountId', { maxLength: 22 });
      if (!/^[0-9A-Za-z]*$/.test(accountId)) fail(badRequest('accountId must be Base62 (digits and letters only)'));
      const name = requireString(input, 'name');

      const problem = nameProblem(name);
      const taken = takenByAccount.get(accountId || DEFAULT_ACCOUNT_ID)?.has(name) ?? false;
      const refusal = problem ?? (taken ? `The app name "${name}" is already in use in this account.` : undefined);
      const message = refusal ?? 'The app name is available.';
      return { status: 200, json: { success: true, availableName: refusal === undefined, message } };
    }),
  ];
}

/** Why a name breaks the rule: 3-15 of [a-z0-9-], starting and ending with a letter or digit, no '--'. */
function nameProblem(name: string): string | undefined {
  if (name.length < 3 || name.length > 15) return 'The app name must be 3 to 15 characters long.';
  if (!/^[a-z0-9-]+$/.test(name)) return 'The app name may contain only lower-case letters, digits and "-".';
  if (name.startsWith('-') || name.endsWith('-'))
    return 'The app name must start and end with a lower-case letter or digit.';
  if (name.includes('--')) return 'The app name must not contain consecutive "-".';
  return undefined;
}
